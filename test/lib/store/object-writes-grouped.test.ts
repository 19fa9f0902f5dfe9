/**
 * Writers of one invocation at once (object-writes.ts with invocation-batcher.ts): their counter
 * moves and change-log items travel together, and every change is still logged once, in order.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { runInvocation } from '../../../lib/budget/frames.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('object writes of one invocation at once', () => {
  it('share counter moves and log batches; every change is logged once, in rv order', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const store = t
    const names = ['a', 'b', 'c', 'd', 'e', 'f']
    const made = await runInvocation('test', { mode: 'strict' }, () =>
      Promise.all(names.map((n) => store.objects.create(cmKey(n), configMap(n))))
    )
    const ops = counter.snapshot()
    expect(ops.UpdateItem).toBeLessThan(names.length)
    // every head is its own conditional put; the log items went (mostly) in batches
    expect((ops.PutItem ?? 0) - names.length).toBeLessThan(names.length)
    expect(ops.BatchWriteItem ?? 0).toBeGreaterThan(0)
    const rvs = made.map((o) => Number(o.metadata.resourceVersion))
    expect(new Set(rvs).size).toBe(names.length)
    const { events } = await store.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => `${e.type} ${e.object.metadata.name} ${e.rv}`)).toEqual(
      [...made]
        .sort((x, y) => Number(x.metadata.resourceVersion) - Number(y.metadata.resourceVersion))
        .map((o) => `ADDED ${o.metadata.name} ${o.metadata.resourceVersion}`)
    )
    // updates and deletes of one invocation likewise
    await runInvocation('test', { mode: 'strict' }, () =>
      Promise.all(
        made.map((o, i) =>
          i % 2 === 0
            ? store.objects.update(
                cmKey(o.metadata.name ?? ''),
                { ...o, data: { v: '2' } },
                o.metadata.resourceVersion ?? ''
              )
            : store.objects.delete(cmKey(o.metadata.name ?? ''), o.metadata.resourceVersion)
        )
      )
    )
    const after = await store.objects.changes({ ...configMaps('c1'), sinceRv: Math.max(...rvs) })
    expect(after.events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual([
      'DELETED b',
      'DELETED d',
      'DELETED f',
      'MODIFIED a',
      'MODIFIED c',
      'MODIFIED e',
    ])
  })
})
