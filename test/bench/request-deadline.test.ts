/**
 * The bench fleet's request signal (bench/request-deadline.ts): a request to a center that never
 * answers ends with a TimeoutError — 200 at once, the case where a timeout combined through
 * `AbortSignal.any` was collected before it fired — the fleet's stop aborts it with the stop's
 * reason, and once done neither the timer nor the stop touches it.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { requestDeadline } from '../../bench/request-deadline.ts'

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

describe('requestDeadline', () => {
  it('ends every request to a silent center with a TimeoutError', async () => {
    const url = await silentServer()
    const stop = new AbortController()
    const names = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const d = requestDeadline(100, stop.signal)
        try {
          await fetch(url, { signal: d.signal })
          return 'answered'
        } catch (e) {
          return (e as Error).name
        } finally {
          d.done()
        }
      })
    )
    expect(new Set(names)).toEqual(new Set(['TimeoutError']))
  })

  it("aborts with the stop's reason, and is left alone once done", () => {
    const stop = new AbortController()
    const a = requestDeadline(60_000, stop.signal)
    const b = requestDeadline(60_000, stop.signal)
    b.done()
    stop.abort(new Error('fleet stopped'))
    expect(a.signal.aborted).toBe(true)
    expect((a.signal.reason as Error).message).toBe('fleet stopped')
    expect(b.signal.aborted).toBe(false)
    a.done()
  })

  it('starts aborted under a stop that already fired', () => {
    const stop = new AbortController()
    stop.abort(new Error('gone'))
    const d = requestDeadline(60_000, stop.signal)
    expect(d.signal.aborted).toBe(true)
    d.done()
  })
})
