import { describe, expect, it } from 'vitest'
import {
  chargeSubrequest,
  currentFrame,
  measured,
  runInvocation,
} from '../../../lib/budget/frames.ts'
import { createBatcher } from '../../../lib/store/invocation-batcher.ts'

/** A send that records its groups, answers each input doubled, and charges one subrequest. */
function recorder(fail?: (inputs: number[]) => boolean) {
  const groups: number[][] = []
  const send = async (inputs: number[]) => {
    groups.push(inputs)
    const frame = currentFrame()
    if (frame) chargeSubrequest(frame, 'Test')
    await new Promise((r) => setTimeout(r, 5))
    if (fail?.(inputs)) throw new Error(`failed ${inputs.join(',')}`)
    return inputs.map((x) => x * 2)
  }
  return { groups, send }
}

const invoke = <T>(fn: () => Promise<T>) => runInvocation('test', { mode: 'strict' }, fn)

describe('createBatcher', () => {
  it('outside an invocation sends every call on its own', async () => {
    const r = recorder()
    const submit = createBatcher(r.send)
    expect(await Promise.all([submit(1), submit(2), submit(3)])).toEqual([2, 4, 6])
    expect(r.groups).toEqual([[1], [2], [3]])
  })

  it('sends the first at once and what comes meanwhile together, in order, each its answer', async () => {
    const r = recorder()
    const submit = createBatcher(r.send)
    const answers = await invoke(() => Promise.all([1, 2, 3, 4].map((x) => submit(x))))
    expect(answers).toEqual([2, 4, 6, 8])
    expect(r.groups).toEqual([[1], [2, 3, 4]])
    // a lone caller later waits for nothing
    expect(await invoke(() => submit(5))).toBe(10)
    expect(r.groups.at(-1)).toEqual([5])
  })

  it('fails the callers of a failed send only; the next group goes on', async () => {
    const r = recorder((inputs) => inputs.includes(2))
    const submit = createBatcher(r.send)
    const settled = await invoke(async () => {
      const first = submit(1)
      const second = [submit(2), submit(3)]
      await first
      const third = submit(4)
      return Promise.allSettled([first, ...second, third])
    })
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([
      2,
      'failed',
      'failed',
      8,
    ])
  })

  it('never puts calls of two invocations in one send', async () => {
    const r = recorder()
    const submit = createBatcher(r.send)
    const both = await Promise.all([
      invoke(() => Promise.all([submit(1), submit(2)])),
      invoke(() => Promise.all([submit(10), submit(20)])),
    ])
    expect(both).toEqual([
      [2, 4],
      [20, 40],
    ])
    for (const g of r.groups) expect(g.every((x) => x < 10) || g.every((x) => x >= 10)).toBe(true)
  })

  it("charges each caller's measuring scopes its share of the send, not the whole of it", async () => {
    const r = recorder()
    const submit = createBatcher(r.send)
    const used = await invoke(async () => {
      const first = measured(() => submit(1))
      const rest = [2, 3, 4, 5].map((x) => measured(() => submit(x)))
      return (await Promise.all([first, ...rest])).map((m) => m.used)
    })
    // the first sent alone (1 subrequest), the four others shared one
    expect(used).toEqual([1, 0.25, 0.25, 0.25, 0.25])
  })
})
