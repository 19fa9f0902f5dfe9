/** retryStale runs a write again only when it lost a race (StaleWriteError), until a deadline. */
import { describe, expect, it } from 'vitest'
import { conflict, StaleWriteError } from '../../../lib/errors.ts'
import { retryStale } from '../../../lib/hub/retry-stale.ts'

const stale = () => new StaleWriteError('configmaps', { name: 'a' }, 'modified')
const noSleep = async () => {}

describe('retryStale', () => {
  it('runs the attempt again after a lost race and returns its result', async () => {
    let calls = 0
    const out = await retryStale(
      async () => {
        calls++
        if (calls < 4) throw stale()
        return 'done'
      },
      { sleep: noSleep }
    )
    expect(out).toBe('done')
    expect(calls).toBe(4)
  })

  it('does not retry a Conflict the client asked for, nor any other error', async () => {
    let calls = 0
    const asked = conflict('configmaps', { name: 'a' }, 'precondition failed')
    await expect(
      retryStale(
        async () => {
          calls++
          throw asked
        },
        { sleep: noSleep }
      )
    ).rejects.toBe(asked)
    expect(calls).toBe(1)
  })

  it('gives up at the deadline with the last conflict', async () => {
    let t = 0
    let calls = 0
    const err = await retryStale(
      async () => {
        calls++
        t += 1000
        throw stale()
      },
      { now: () => t, deadlineMs: 5000, sleep: noSleep }
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StaleWriteError)
    expect((err as StaleWriteError).code).toBe(409)
    expect(calls).toBe(5)
  })
})
