/**
 * The matrix's data source with the "needs attention" filter (functions/dashboard/assets/ui/
 * matrix-data.js, a browser module with no DOM in it), over a fetch answering as the server's
 * bounded scan does: pages that found nothing but say where to go on (`next`) are followed one
 * request at a time, in order, until the server says the scan is done, and the status counts
 * what was found and scanned.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'

// Loaded by path: the page's modules are plain JavaScript, without type declarations.
const MODULE = '../../../../../functions/dashboard/assets/ui/matrix-data.js'
const { createMatrixData } = await import(MODULE)

const edge = (name: string) => ({ key: `mb-${name}`, syncTarget: name })

/** What the server answers from each offset: 300 edges, one needing attention at 150. */
const PAGES: Record<number, { items: unknown[]; scanned: number; next?: number }> = {
  0: { items: [], scanned: 100, next: 100 },
  100: { items: [edge('e150')], scanned: 100, next: 200 },
  200: { items: [], scanned: 100 },
}

afterEach(() => vi.unstubAllGlobals())

describe('the matrix data with the attention filter', () => {
  it('follows `next` through pages that found nothing, one request at a time, to the end', async () => {
    const asked: { offset: number; attention: string | null }[] = []
    let inFlight = 0
    let most = 0
    vi.stubGlobal('fetch', async (url: string) => {
      const q = new URL(url, 'http://ui.test').searchParams
      const offset = Number(q.get('offset'))
      asked.push({ offset, attention: q.get('attention') })
      most = Math.max(most, ++inFlight)
      await new Promise((r) => setTimeout(r, 1))
      inFlight--
      const page = PAGES[offset]
      if (!page) return new Response('{}', { status: 500 })
      const body = {
        now: 0,
        staleAfterMs: 180_000,
        placements: [],
        edges: { total: 300, offset, ...page },
        cells: {},
      }
      return new Response(JSON.stringify(body), { status: 200 })
    })
    let done = false
    const data = createMatrixData({
      space: 'root:ws',
      labels: '',
      attention: true,
      onChange: () => {
        done = data?.status()?.done ?? false
      },
      onError: (e: unknown) => {
        throw e
      },
    })
    for (let i = 0; i < 1000 && !done; i++) await new Promise((r) => setTimeout(r, 5))
    expect(asked).toEqual([
      { offset: 0, attention: '1' },
      { offset: 100, attention: '1' },
      { offset: 200, attention: '1' },
    ])
    expect(most).toBe(1)
    expect(data.status()).toEqual({ found: 1, scanned: 300, total: 300, done: true })
    expect(data.column(0)).toEqual(edge('e150'))
    data.dispose()
  })
})
