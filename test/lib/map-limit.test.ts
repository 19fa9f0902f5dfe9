import { describe, expect, it } from 'vitest'
import { mapLimit } from '../../lib/map-limit.ts'

/** A promise with its resolve exposed, so the test decides when each call finishes. */
function gate() {
  let open: () => void = () => {}
  const opened = new Promise<void>((r) => {
    open = r
  })
  return { opened, open }
}

describe('mapLimit', () => {
  it('keeps the input order whatever order the calls finish in', async () => {
    const gates = [gate(), gate(), gate()]
    const done = mapLimit([0, 1, 2], 3, async (i) => {
      await gates[i]!.opened
      return `r${i}`
    })
    gates[2]!.open()
    gates[0]!.open()
    gates[1]!.open()
    expect(await done).toEqual(['r0', 'r1', 'r2'])
  })

  it('never has more than `limit` calls in flight, and starts the next as one ends', async () => {
    const gates = [gate(), gate(), gate(), gate()]
    const started: number[] = []
    let inFlight = 0
    let most = 0
    const done = mapLimit([0, 1, 2, 3], 2, async (i) => {
      started.push(i)
      inFlight++
      most = Math.max(most, inFlight)
      await gates[i]!.opened
      inFlight--
      return i
    })
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    gates[1]!.open()
    await gates[1]!.opened
    await new Promise((r) => setImmediate(r))
    expect(started).toEqual([0, 1, 2])
    for (const g of gates) g.open()
    expect(await done).toEqual([0, 1, 2, 3])
    expect(most).toBe(2)
  })

  it('on a failure starts nothing more and throws only once the calls in flight settled', async () => {
    const slow = gate()
    const started: number[] = []
    let settled = false
    const done = mapLimit([0, 1, 2, 3], 2, async (i) => {
      started.push(i)
      if (i === 1) throw new Error('refused')
      await slow.opened
      settled = true
      return i
    })
    let thrown: unknown
    const ended = done.catch((e) => {
      thrown = e
      return settled
    })
    await new Promise((r) => setImmediate(r))
    expect(thrown).toBeUndefined()
    slow.open()
    expect(await ended).toBe(true)
    expect((thrown as Error).message).toBe('refused')
    expect(started).toEqual([0, 1])
  })

  it('answers an empty list without calling fn', async () => {
    let calls = 0
    expect(
      await mapLimit([], 4, async () => {
        calls++
      })
    ).toEqual([])
    expect(calls).toBe(0)
  })
})
