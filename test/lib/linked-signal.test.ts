/**
 * A signal linked to longer-lived ones (lib/linked-signal.ts): a request to a center that never
 * answers ends with a TimeoutError — 200 at once, the case where a timeout combined through
 * `AbortSignal.any` was collected before it fired under Node 20 —, a parent's abort reaches it
 * with the parent's reason, and once it is released, aborted or timed out the parent keeps
 * nothing of it (`AbortSignal.any` kept every observed one on a long-lived signal); a parent holds
 * one listener however many follow it.
 */
import { getEventListeners } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { followersOf, linkedSignal } from '../../lib/linked-signal.ts'

let server: Server | undefined
afterEach(
  () =>
    new Promise<void>((r) => {
      server?.closeAllConnections()
      server?.listening ? server.close(() => r()) : r()
    })
)

async function silentServer(): Promise<string> {
  const s = createServer(() => undefined)
  server = s
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/`
}

const listeners = (s: AbortSignal) => getEventListeners(s, 'abort').length

describe('linkedSignal', () => {
  it('ends every request to a silent center with a TimeoutError, and lets go of the parent', async () => {
    const url = await silentServer()
    const stop = new AbortController()
    const names = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const d = linkedSignal([stop.signal], 100)
        try {
          await fetch(url, { signal: d.signal })
          return 'answered'
        } catch (e) {
          return (e as Error).name
        }
      })
    )
    expect(new Set(names)).toEqual(new Set(['TimeoutError']))
    expect(followersOf(stop.signal)).toBe(0)
    expect(listeners(stop.signal)).toBe(1)
  })

  it("aborts with a parent's reason, and is left alone once released", () => {
    const stop = new AbortController()
    const other = new AbortController()
    const a = linkedSignal([other.signal, stop.signal], 60_000)
    const b = linkedSignal([stop.signal], 60_000)
    expect(followersOf(stop.signal)).toBe(2)
    expect(listeners(stop.signal)).toBe(1)
    b.release()
    expect(followersOf(stop.signal)).toBe(1)
    stop.abort(new Error('fleet stopped'))
    expect(a.signal.aborted).toBe(true)
    expect((a.signal.reason as Error).message).toBe('fleet stopped')
    expect(b.signal.aborted).toBe(false)
    // The abort let go of the other parent too.
    expect(followersOf(other.signal)).toBe(0)
    expect(followersOf(stop.signal)).toBe(0)
  })

  it('aborts on its own with an AbortError, or a reason given, and lets go of its parents', () => {
    const stop = new AbortController()
    const a = linkedSignal([stop.signal, undefined])
    const b = linkedSignal([stop.signal])
    a.abort()
    b.abort(new Error('done'))
    expect((a.signal.reason as DOMException).name).toBe('AbortError')
    expect((b.signal.reason as Error).message).toBe('done')
    expect(followersOf(stop.signal)).toBe(0)
    expect(stop.signal.aborted).toBe(false)
  })

  it('starts aborted under a parent that already fired, holding nothing', () => {
    const stop = new AbortController()
    stop.abort(new Error('gone'))
    const d = linkedSignal([stop.signal], 60_000)
    expect(d.signal.aborted).toBe(true)
    expect((d.signal.reason as Error).message).toBe('gone')
    expect(followersOf(stop.signal)).toBe(0)
    expect(listeners(stop.signal)).toBe(0)
  })

  it('with no parent and no limit is a plain controller', () => {
    const d = linkedSignal([])
    expect(d.signal.aborted).toBe(false)
    d.abort()
    expect(d.signal.aborted).toBe(true)
  })
})
