/**
 * ObjectStore.versions on DynamoDB: where a collection's objects stand (space, namespace, name,
 * resourceVersion), in list order, from one Query that reads no body and no counter, for each kind
 * of list; every write moves a version, a deletion and re-creation included.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps, seedLists } from './fixtures.ts'

const counter = createRequestCounter()
let t: TestStore
beforeEach(async () => {
  t = await createTestStore({ counter })
})
afterEach(() => t.close())

describe('ObjectStore on DynamoDB: versions', () => {
  const seed = () => seedLists(t.objects)

  it('answers versions without bodies, in list order, for each kind of list', async () => {
    await seed()
    {
      const refs = [
        configMaps('c1', 'default'),
        configMaps('c1'),
        { cluster: 'c1', group: '', resource: 'namespaces', namespace: '' },
        configMaps('*'),
        configMaps('*', 'default'),
        configMaps('c3'),
      ]
      for (const ref of refs) {
        const listed = (await t.objects.list(ref)).items
        counter.reset()
        expect(await t.objects.versions(ref)).toEqual(
          listed.map((o) => ({
            cluster: ['z', 'o'].includes(o.metadata.name ?? '') ? 'c2' : 'c1',
            namespace: o.metadata.namespace ?? '',
            name: o.metadata.name,
            rv: Number(o.metadata.resourceVersion),
          }))
        )
        // One Query, and no read of the counter or of any body.
        expect(counter.snapshot()).toEqual({ Query: 1 })
      }
    }
  })

  it('moves a version with every write, a re-creation included', async () => {
    await seed()
    const ref = configMaps('c1', 'default')
    const before = await t.objects.versions(ref)
    const a = (await t.objects.get(cmKey('a', 'default', 'c1'))) as KubeObject
    await t.objects.update(cmKey('a', 'default', 'c1'), a, a.metadata.resourceVersion ?? '')
    const updated = await t.objects.versions(ref)
    expect(updated.map((v) => v.name)).toEqual(['a', 'b'])
    expect(updated[0]!.rv).toBeGreaterThan(before[0]!.rv)
    expect(updated[1]).toEqual(before[1])
    await t.objects.delete(cmKey('b', 'default', 'c1'))
    await t.objects.create(cmKey('b', 'default', 'c1'), configMap('b', 'default'))
    const recreated = await t.objects.versions(ref)
    expect(recreated[1]!.rv).toBeGreaterThan(updated[0]!.rv)
  })
})
