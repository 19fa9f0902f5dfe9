/**
 * The dashboard page's window cache (functions/dashboard/assets/ui/window-cache.js, a browser
 * module with no DOM in it): a window the server refused as a bad request (a malformed label
 * selector, 400) is not asked for again, not even by the live refresh, while a window that failed
 * otherwise (503) is asked again on the next refresh. A refresh re-fetches the windows in view in
 * order, so a later window's second load shows the earlier one was passed over.
 */
import { describe, expect, it } from 'vitest'

// Loaded by path: the page's modules are plain JavaScript, without type declarations.
const MODULE = '../../../../../functions/dashboard/assets/ui/window-cache.js'
const { createWindowCache } = await import(MODULE)

async function until(what: string, ok: () => boolean) {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10))
  if (!ok()) throw new Error(`timed out waiting for ${what}`)
}

/** A cache of windows of 100 whose first window fails with `code` once, and what it was asked. */
function cacheFailingWith(code: number) {
  const calls: number[] = []
  const errors: unknown[] = []
  const cache = createWindowCache({
    size: 100,
    load: async (offset: number) => {
      calls.push(offset)
      if (offset === 0 && calls.filter((o) => o === 0).length === 1)
        throw Object.assign(new Error(`HTTP ${code}`), { code })
      return { total: 250, offset }
    },
    totalOf: (d: { total: number }) => d.total,
    onLoad: () => {},
    onError: (e: unknown) => errors.push(e),
  })
  return { cache, calls, errors, count: (o: number) => calls.filter((c) => c === o).length }
}

describe('the window cache', () => {
  it('does not ask again for a window the server refused as a bad request', async () => {
    const c = cacheFailingWith(400)
    c.cache.ensure(0, 150)
    await until('both windows in view', () => c.count(0) === 1 && c.count(100) === 1)
    c.cache.refresh()
    await until('the second window again', () => c.count(100) === 2)
    expect(c.count(0)).toBe(1)
    expect(c.errors).toHaveLength(1)
    c.cache.dispose()
  })

  it('asks again on refresh for a window that failed otherwise', async () => {
    const c = cacheFailingWith(503)
    c.cache.ensure(0, 150)
    await until('both windows in view', () => c.count(0) === 1 && c.count(100) === 1)
    c.cache.refresh()
    await until('the second window again', () => c.count(100) === 2)
    expect(c.count(0)).toBe(2)
    c.cache.dispose()
  })
})
