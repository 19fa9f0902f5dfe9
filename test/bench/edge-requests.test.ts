/**
 * The request tally of the bench's agents (bench/edge-requests.ts): each call of a counted center
 * client is one request of its kind, counted when sent (a failed one too, and counted again among
 * the failed, unless the agent aborted it); a client without held polls stays without them;
 * tallies subtract and add kind by kind.
 */
import { describe, expect, it } from 'vitest'
import {
  addRequests,
  countingClient,
  noRequests,
  requestsSince,
  requestsTotal,
} from '../../bench/edge-requests.ts'
import type { CenterClient } from '../../lib/edge-agent/center-client.ts'

const fake = (): CenterClient => ({
  getDesired: async () => ({ kind: 'unchanged' }),
  holdDesired: async (_v, o) => {
    if (o.signal?.aborted) throw new Error('aborted')
    if (o.waitSeconds === 0) throw new Error('500 Internal Server Error')
    return { kind: 'unchanged', heldSeconds: 300 }
  },
  postReport: async () => {
    throw new Error('center gone')
  },
})

describe('countingClient', () => {
  it('counts every request by kind, failed ones too', async () => {
    const tally = noRequests()
    const c = countingClient(fake(), tally)
    await c.getDesired(3)
    await c.holdDesired?.(3, { waitSeconds: 300 })
    await c.holdDesired?.(3, { waitSeconds: 300 })
    await expect(c.postReport({} as never)).rejects.toThrow('center gone')
    expect(tally).toEqual({ desired: 1, held: 2, reports: 1, failed: 1 })
    expect(requestsTotal(tally)).toBe(4)
  })

  it('counts a held request the center failed, not one the agent aborted', async () => {
    const tally = noRequests()
    const c = countingClient(fake(), tally)
    await expect(c.holdDesired?.(3, { waitSeconds: 0 })).rejects.toThrow('500')
    await expect(
      c.holdDesired?.(3, { waitSeconds: 300, signal: AbortSignal.abort() })
    ).rejects.toThrow('aborted')
    expect(tally).toEqual({ desired: 0, held: 2, reports: 0, failed: 1 })
  })

  it('adds no held poll to a client without one', () => {
    const { holdDesired: _, ...plain } = fake()
    expect(countingClient(plain, noRequests()).holdDesired).toBeUndefined()
  })
})

describe('requestsSince and addRequests', () => {
  it('subtract and add kind by kind', () => {
    const a = { desired: 1, held: 2, reports: 3, failed: 0 }
    const b = { desired: 5, held: 2, reports: 10, failed: 2 }
    expect(requestsSince(a, b)).toEqual({ desired: 4, held: 0, reports: 7, failed: 2 })
    expect(addRequests(a, b)).toEqual({ desired: 6, held: 4, reports: 13, failed: 2 })
  })
})
