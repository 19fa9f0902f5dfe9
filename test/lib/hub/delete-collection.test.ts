/**
 * deleteListed (lib/hub/delete-collection.ts) outside an invocation, where the budget never stops
 * it: a few deletes in flight at once, the answer in list order, NotFound skipped, a failure
 * surfaced only after the deletes in flight end, and a request that has run its time starting no
 * further delete and answering 429 with what it did. The clock is injected: no test waits on time.
 */
import { describe, expect, it } from 'vitest'
import { BudgetExceeded } from '../../../lib/budget/budget-exceeded.ts'
import { ApiError } from '../../../lib/errors.ts'
import { deleteListed } from '../../../lib/hub/delete-collection.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const objs = (n: number): KubeObject[] =>
  Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}` },
  }))
const name = (o: KubeObject) => o.metadata.name ?? ''
const tick = () => new Promise<void>((r) => setImmediate(r))

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x
  )
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

describe('deleteListed', () => {
  it('keeps a few deletes in flight and answers the deleted objects in list order', async () => {
    let inFlight = 0
    let most = 0
    const out = await deleteListed(
      objs(20),
      async (o) => {
        inFlight++
        most = Math.max(most, inFlight)
        // Later objects finish first: the answer is still in list order.
        for (let i = 0; i < 20 - Number(name(o).slice(3)); i++) await tick()
        inFlight--
        return o
      },
      { workers: 4 }
    )
    expect(most).toBe(4)
    expect(out.map(name)).toEqual(objs(20).map(name))
  })

  it('skips an object already gone (NotFound) and one whose delete returns nothing', async () => {
    const out = await deleteListed(objs(4), async (o) => {
      if (name(o) === 'cm-1') throw new ApiError(404, 'NotFound', 'gone')
      return name(o) === 'cm-2' ? undefined : o
    })
    expect(out.map(name)).toEqual(['cm-0', 'cm-3'])
  })

  it('surfaces a failure after the deletes in flight ended, starting no more', async () => {
    const ended: string[] = []
    const p = deleteListed(
      objs(10),
      async (o) => {
        await tick()
        if (name(o) === 'cm-1') throw new ApiError(500, 'InternalError', 'store down')
        await tick()
        ended.push(name(o))
        return o
      },
      { workers: 3 }
    )
    expect((await refusal(p)).code).toBe(500)
    // cm-0 and cm-2 were in flight beside cm-1 and finished; nothing started after the failure.
    expect(ended.sort()).toEqual(['cm-0', 'cm-2'])
  })

  it('answers 429 naming what it did once a delete met the budget', async () => {
    const p = deleteListed(
      objs(10),
      async (o) => {
        if (name(o) === 'cm-5') throw new BudgetExceeded('fetch', 100)
        return o
      },
      { workers: 1 }
    )
    const e = await refusal(p)
    expect(e.code).toBe(429)
    expect(e.details?.retryAfterSeconds).toBe(1)
    expect(e.message).toContain('deleted 5 of 10 objects')
    expect(e.message).toContain('subrequest budget')
  })

  it('starts no delete once the request has run its time, and says so', async () => {
    let clock = 0
    const started: string[] = []
    const p = deleteListed(
      objs(10),
      async (o) => {
        started.push(name(o))
        clock += 1_000 // each delete takes a second of the injected clock
        return o
      },
      { workers: 1, wallMs: 3_000, now: () => clock }
    )
    const e = await refusal(p)
    expect(e.code).toBe(429)
    expect(e.message).toContain('deleted 3 of 10 objects')
    expect(e.message).toContain('time')
    expect(started).toEqual(['cm-0', 'cm-1', 'cm-2'])
  })

  it('always deletes the first object, however slow the clock says it is', async () => {
    const p = deleteListed(objs(2), async (o) => o, { workers: 1, wallMs: 0, now: () => 0 })
    expect((await refusal(p)).message).toContain('deleted 1 of 2 objects')
  })
})
