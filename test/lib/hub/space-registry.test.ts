import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInvocation } from '../../../lib/budget/frames.ts'
import { invalidateRegistry, registryForSpace } from '../../../lib/hub/space-registry.ts'
import { ROOT } from '../../../lib/hub/spaces.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const counter = createRequestCounter()
let hub: TestHub

beforeAll(async () => {
  hub = await createTestHub({ counter })
})
afterAll(async () => {
  await hub.close()
})

/** Asks for root's registry `n` times at once, the cache emptied first; returns the store reads. */
async function concurrent(n: number, inInvocation: boolean): Promise<Record<string, number>> {
  invalidateRegistry(hub.deps, ROOT.id)
  counter.reset()
  const ask = () =>
    Promise.all(Array.from({ length: n }, () => registryForSpace(hub.deps, ROOT.id)))
  const got = inInvocation ? await runInvocation('test', { mode: 'strict' }, ask) : await ask()
  expect(got.every((r) => r === got[0])).toBe(inInvocation)
  for (const r of got) expect(r.byResource('', 'namespaces')?.kind).toBe('Namespace')
  return counter.snapshot()
}

describe('registryForSpace', () => {
  it('builds once for the runs of one invocation that miss together, listing items only', async () => {
    expect(await concurrent(16, true)).toEqual({ Query: 1 })
  })

  it('outside an invocation shares nothing: every miss lists', async () => {
    expect((await concurrent(4, false)).Query).toBe(4)
  })

  it('a CRD written meanwhile is not hidden by a build shared before it', async () => {
    await runInvocation('test', { mode: 'strict' }, async () => {
      invalidateRegistry(hub.deps, ROOT.id)
      counter.reset()
      const before = registryForSpace(hub.deps, ROOT.id)
      invalidateRegistry(hub.deps, ROOT.id)
      const after = registryForSpace(hub.deps, ROOT.id)
      const [b, a] = await Promise.all([before, after])
      expect(a).not.toBe(b)
      expect(counter.snapshot().Query).toBe(2)
    })
  })
})
