/**
 * The ownership record in a real edge API (an in-process hub): written shard by shard and read
 * back whole by a new keeper; only changed shards written; a record someone else changed is read
 * again instead of overwritten (409 on the resourceVersion precondition); a failed or refused read
 * leaves the keeper unready; a missing namespace is an error, not a reason to read again; and the
 * bootstrap Role grants what the record needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentRbac } from '../../../lib/edge/manifests-rbac.ts'
import type { EdgeKube } from '../../../lib/edge-agent/kube-client.ts'
import {
  createOwnedKeeper,
  RECORD_VERBS,
  RecordChanged,
} from '../../../lib/edge-agent/owned-keeper.ts'
import { reserveOf, SHARD_BUDGET } from '../../../lib/edge-agent/owned-shards.ts'
import type { OwnedRecord } from '../../../lib/edge-agent/ownership.ts'
import { silentLogger } from '../../../lib/log.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { AGENT_NS, cmRef, type Edge, startEdge } from './fixture.ts'
import { putShard, recordEntries, shardOf } from './record-fixture.ts'

let edge: Edge
beforeAll(async () => {
  edge = await startEdge()
})
afterAll(async () => {
  await edge?.close()
})

const entry = (name: string, uid = `uid-${name}`): [string, OwnedRecord] => [
  `/configmaps/app/${name}`,
  { ...cmRef('app', name), uid, hash: 'h', view: 'v', generations: [] },
]

function keeper(name: string, kube: EdgeKube = edge.kube, namespace = AGENT_NS) {
  return createOwnedKeeper({
    kube,
    namespace,
    name,
    log: silentLogger,
    now: () => new Date(),
    shardBudget: 3 * reserveOf(entry('k0')[0]),
  })
}

/** The edge API, counting record writes. */
function counting(writes: string[]): EdgeKube {
  return {
    ...edge.kube,
    create: (r, b) => {
      writes.push(`create ${r.name}`)
      return edge.kube.create(r, b)
    },
    update: (r, b) => {
      writes.push(`update ${r.name}`)
      return edge.kube.update(r, b)
    },
  }
}

describe('the ownership record in the edge cluster', () => {
  it('is written in shards and read back whole by a new keeper', async () => {
    const writes: string[] = []
    const k = keeper('rec-a', counting(writes))
    expect(await k.ready()).toBe(true)
    expect(await k.ready()).toBe(false)
    for (let i = 0; i < 7; i++) k.owned.set(...entry(`k${i}`))
    await k.save()
    expect(writes).toEqual(['create rec-a-0', 'create rec-a-1', 'create rec-a-2'])
    expect(k.identity).toBe(`${AGENT_NS}/rec-a`)
    expect(k.holds('/configmaps/edgeplane-system/rec-a-2')).toBe(true)
    expect(k.holds('/configmaps/app/rec-a-2')).toBe(false)
    const again = keeper('rec-a')
    await again.ready()
    expect([...again.owned.entries()].sort()).toEqual([...k.owned.entries()].sort())
    // One entry changes: one shard written, with its resourceVersion as precondition.
    writes.length = 0
    k.owned.set(...entry('k4', 'uid-new'))
    await k.save()
    expect(writes).toEqual(['update rec-a-1'])
    await k.save()
    expect(writes).toEqual(['update rec-a-1'])
    expect((await recordEntries(edge, 'rec-a'))['/configmaps/app/k4']?.uid).toBe('uid-new')
  })

  it('fills a shard to its budget with entries at their largest, which the edge API accepts', async () => {
    const k = createOwnedKeeper({
      kube: edge.kube,
      namespace: AGENT_NS,
      name: 'rec-full',
      log: silentLogger,
      now: () => new Date(),
    })
    await k.ready()
    const name = (i: number) => `${'x'.repeat(230)}-${i}.example.com`
    const key = (i: number) => `apiextensions.k8s.io/customresourcedefinitions//${name(i)}`
    for (let i = 0; (k.owned.size + 1) * reserveOf(key(i)) <= SHARD_BUDGET; i++)
      k.owned.set(key(i), {
        group: 'apiextensions.k8s.io',
        version: 'v1',
        resource: 'customresourcedefinitions',
        namespace: '',
        name: name(i),
        uid: '0123456789abcdef-0123456789abcdef-0123',
        hash: 'f'.repeat(32),
        view: 'e'.repeat(32),
        generations: Array.from({ length: 8 }, (_, g) => ({ edge: 2 ** 40 + g, center: 2 ** 40 })),
        crdGroup: name(i),
        createOnly: true,
      })
    await k.save()
    expect(await shardOf(edge, 'rec-full', 1)).toBeUndefined()
    const again = keeper('rec-full')
    await again.ready()
    expect(again.owned.size).toBe(k.owned.size)
    expect(again.owned.get(key(0))).toEqual(k.owned.get(key(0)))
  })

  it('reads the record again when someone else changed it, instead of overwriting it', async () => {
    const k = keeper('rec-b')
    await k.ready()
    k.owned.set(...entry('mine'))
    await k.save()
    // An operator puts another entry in (with the current resourceVersion).
    const theirs = Object.fromEntries([entry('mine'), entry('theirs')])
    await putShard(edge, 'rec-b', { objects: JSON.stringify(theirs) })
    k.owned.set(...entry('late'))
    await expect(k.save()).rejects.toThrow(RecordChanged)
    expect(await k.ready()).toBe(true)
    expect([...k.owned.keys()].sort()).toEqual(['/configmaps/app/mine', '/configmaps/app/theirs'])
    k.owned.set(...entry('late'))
    await k.save()
    expect(Object.keys(await recordEntries(edge, 'rec-b')).sort()).toEqual([
      '/configmaps/app/late',
      '/configmaps/app/mine',
      '/configmaps/app/theirs',
    ])
  })

  it('stays unready, holding nothing, while the record cannot be listed or parsed', async () => {
    let failing = true
    const flaky: EdgeKube = {
      ...edge.kube,
      list: async (gvr, ns) => {
        if (failing) throw new RemoteError(503, 'the edge API is restarting')
        return edge.kube.list(gvr, ns)
      },
    }
    const k = keeper('rec-c', flaky)
    await expect(k.ready()).rejects.toThrow(/restarting/)
    await expect(k.save()).rejects.toThrow(/has not been read/)
    failing = false
    await putShard(edge, 'rec-c', { objects: '{"half' })
    await expect(k.ready()).rejects.toThrow(/rec-c-0/)
    expect(k.owned.size).toBe(0)
    await putShard(edge, 'rec-c', { objects: JSON.stringify(Object.fromEntries([entry('x')])) })
    expect(await k.ready()).toBe(true)
    expect([...k.owned.keys()]).toEqual(['/configmaps/app/x'])
  })

  it('reports a missing namespace as it is, without reading again', async () => {
    const k = keeper('rec-d', edge.kube, 'no-such-namespace')
    await k.ready()
    k.owned.set(...entry('x'))
    const failure = await k.save().catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(RemoteError)
    expect((failure as RemoteError).code).toBe(404)
    expect(await k.ready()).toBe(false)
    expect(await shardOf(edge, 'rec-d')).toBeUndefined()
  })

  it('is covered by the Role the bootstrap manifests give the agent in its namespace', () => {
    const role = agentRbac({ name: 'edgeplane-agent', namespace: AGENT_NS, labels: {} }).find(
      (o) => o.kind === 'Role'
    ) as unknown as {
      metadata: { namespace: string }
      rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[]
    }
    expect(role.metadata.namespace).toBe(AGENT_NS)
    const rule = role.rules.find(
      (r) => r.apiGroups.includes('') && r.resources.includes('configmaps')
    )
    expect(rule?.verbs).toEqual(expect.arrayContaining(RECORD_VERBS))
  })
})
