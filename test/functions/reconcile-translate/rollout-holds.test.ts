/**
 * The batch's reads of a workload space's Rollouts for translation (rollout-holds.ts): one list
 * of Rollouts per space per batch, the records and bodies only of adopted Rollouts and only the
 * revisions their status names, failures kept for the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  namedRevisions,
  rolloutHolds,
} from '../../../functions/reconcile-translate/rollout-holds.ts'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import type { RolloutStatus } from '../../../lib/apis/edge-rollout.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { SourceObject, SpaceSnapshot } from '../../../lib/placement/types.ts'
import { governedContent } from '../../../lib/rollout/revision.ts'
import { createRevisionStore } from '../../../lib/rollout/revision-store.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

const cm = (name: string, v: string, namespace = 'shop'): SourceObject => ({
  ...{ group: '', version: 'v1', resource: 'configmaps', namespaced: true },
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { v } },
})
const ns = (name: string): SourceObject => ({
  ...{ group: '', version: 'v1', resource: 'namespaces', namespaced: false },
  object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { app: name } } },
})
const space = (objects: SourceObject[]): SpaceSnapshot => ({
  spaceId: 's1',
  objects,
  grant: { allowsResource: () => true },
})
const rollout = (uid: string, status?: RolloutStatus, spec?: unknown): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name: `r-${uid}`, uid, creationTimestamp: '2026-12-01T00:00:00Z' },
  spec: (spec ?? {
    namespaceSelector: { matchLabels: { app: 'shop' } },
    waves: [{ name: 'all' }],
  }) as KubeObject['spec'],
  ...(status ? { status: status as KubeObject['status'] } : {}),
})

/** A client that lists `rollouts` (or fails), counting its lists. */
function fakeClient(rollouts: KubeObject[] | Error) {
  const calls = { list: 0 }
  const client = {
    list: async () => {
      calls.list++
      if (rollouts instanceof Error) throw rollouts
      return rollouts
    },
  } as unknown as HubClient
  return { client, calls }
}

function countedKv(kv: KvStore) {
  const calls = { list: 0, getMany: 0, hashes: 0 }
  const wrapped: KvStore = {
    ...kv,
    list: (n, prefix, page) => {
      calls.list++
      return kv.list(n, prefix, page)
    },
    getMany: (n, keys) => {
      calls.getMany++
      calls.hashes += keys.length
      return kv.getMany(n, keys)
    },
  }
  return { kv: wrapped, calls }
}

const live = space([ns('shop'), ns('web'), cm('a', '3'), cm('w', '1', 'web')])
const snapshot = { space: async () => live }
const builtins = builtinsFrom()

describe('rolloutHolds', () => {
  it('costs a space without Rollouts one list per batch, and nothing of the store', async () => {
    const { client, calls } = fakeClient([])
    const { kv, calls: kvCalls } = countedKv(t.kv)
    const holds = rolloutHolds({ client, kv, builtins }, snapshot)
    const [one, two] = await Promise.all([holds.of('s1'), holds.of('s1')])
    expect(one).toBe(two)
    expect(one.rollouts).toEqual([])
    expect(calls.list).toBe(1)
    expect(kvCalls).toEqual({ list: 0, getMany: 0, hashes: 0 })
  })

  it('reads an adopted Rollout’s records once and the bodies of the revisions its status names', async () => {
    const store = createRevisionStore(t.kv)
    const ref = { spaceId: 's1', uid: 'u1' }
    for (const [n, v] of [
      [1, '1'],
      [2, '2'],
      [3, '3'],
    ] as const) {
      const c = await governedContent([cm('a', v)])
      await store.cut(ref, { number: n, cutAt: 'x', objects: c.entries }, c.bodies)
    }
    const status: RolloutStatus = {
      completedRevision: 1,
      revision: 2,
      waves: [
        { name: 'all', revision: 2, cut: 1, edges: 1, ready: 0, failed: 0, stale: 0, pending: 1 },
      ],
    }
    const { client } = fakeClient([rollout('u1', status), rollout('u2')])
    const { kv, calls } = countedKv(t.kv)
    const hold = await rolloutHolds({ client, kv, builtins }, snapshot).of('s1')
    // Only the adopted Rollout reads the store: one list, one read of two bodies (not three).
    expect(calls).toEqual({ list: 1, getMany: 1, hashes: 2 })
    const [adopted, fresh] = hold.rollouts
    expect(adopted?.record(1)?.number).toBe(1)
    expect(adopted?.record(2)?.number).toBe(2)
    expect(adopted?.record(3)).toBeUndefined()
    const hash = adopted?.record(2)?.objects[0]?.hash ?? ''
    expect(adopted?.body(hash)?.data).toEqual({ v: '2' })
    expect(adopted?.governs(cm('a', '3'))).toBe(true)
    expect(adopted?.governs(cm('w', '1', 'web'))).toBe(false)
    expect(fresh?.record(1)).toBeUndefined()
    expect([...hold.liveKeys].sort()).toEqual([
      '/configmaps/shop/a',
      '/configmaps/web/w',
      '/namespaces//shop',
      '/namespaces//web',
    ])
  })

  it('fails for the batch when the Rollouts cannot be read or one does not decode', async () => {
    const { client, calls } = fakeClient(new Error('list failed'))
    const holds = rolloutHolds({ client, kv: t.kv, builtins }, snapshot)
    await expect(holds.of('s1')).rejects.toThrow('list failed')
    await expect(holds.of('s1')).rejects.toThrow('list failed')
    expect(calls.list).toBe(1)
    const bad = fakeClient([rollout('u3', undefined, { waves: [] })])
    const badHolds = rolloutHolds({ client: bad.client, kv: t.kv, builtins }, snapshot)
    await expect(badHolds.of('s1')).rejects.toThrow('does not decode')
  })
})

describe('namedRevisions', () => {
  it('is every revision a destination can be at, nothing before adoption', () => {
    expect(namedRevisions(undefined)).toEqual(new Set())
    expect(namedRevisions({ revision: 1 })).toEqual(new Set())
    const w = { edges: 0, ready: 0, failed: 0, stale: 0, pending: 0 }
    const status: RolloutStatus = {
      completedRevision: 2,
      waves: [
        { name: 'a', revision: 4, from: 3, ...w },
        { name: 'b', revision: 2, ...w },
        { name: 'c', ...w },
      ],
    }
    expect([...namedRevisions(status)].sort()).toEqual([2, 3, 4])
  })
})
