/**
 * Which spaces a SpaceQuota holds and where its counters live (lib/quota/quotas.ts), and how long
 * a hub trusts the quotas it read: while the `quotas` epoch stands, at most QUOTA_TRUST_MS, at once
 * forgotten by the hub that writes one, and by another hub once the epoch moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SpaceQuota } from '../../../lib/apis/grants.ts'
import { createHubCaches } from '../../../lib/hub/hub-caches.ts'
import {
  counterOf,
  covers,
  QUOTA_TRUST_MS,
  quotasOf,
  spaceQuotas,
} from '../../../lib/quota/quotas.ts'
import { EPOCH_MAX_AGE_MS } from '../../../lib/store/epochs.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const quota = (name: string, spaces: string[], uid = `uid-${name}`): SpaceQuota => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'SpaceQuota',
  metadata: { name, uid },
  spec: { spaces, maxObjects: 1 },
})

describe('the spaces a quota holds', () => {
  it('are its paths and the spaces below its subtrees, never mailboxes', () => {
    const q = quota('q', ['root:a', 'root:b:*', 'root:espw', 'root:espw:*'])
    expect(covers(q, 'root:a')).toBe(true)
    expect(covers(q, 'root:a:x')).toBe(false)
    expect(covers(q, 'root:b')).toBe(false)
    expect(covers(q, 'root:b:x:y')).toBe(true)
    expect(covers(q, 'root:espw')).toBe(false)
    expect(covers(q, 'root:espw:mb-1')).toBe(false)
  })

  it('are listed in name order', () => {
    const all = [quota('z', ['root:a']), quota('b', ['root:*']), quota('m', ['root:c'])]
    expect(quotasOf(all, 'root:a').map((q) => q.metadata.name)).toEqual(['b', 'z'])
  })

  it('each count under the quota uid and its spaces, so a change of either counts afresh', () => {
    const a = counterOf(quota('q', ['root:a', 'root:b']), 'id1')
    expect(counterOf(quota('q', ['root:b', 'root:a']), 'id1')).toEqual(a)
    expect(counterOf(quota('q', ['root:a']), 'id1').key).not.toBe(a.key)
    expect(counterOf(quota('q', ['root:a', 'root:b'], 'other'), 'id1').ns).not.toBe(a.ns)
    expect(a.key.endsWith('/id1')).toBe(true)
  })
})

describe('the quotas a hub knows', () => {
  let hub: TestHub
  let clock = Date.parse('2026-01-01T00:00:00Z')
  beforeAll(async () => {
    hub = await createTestHub()
  })
  afterAll(() => hub.close())
  const QUOTAS = '/apis/tenancy.edgeplane.io/v1alpha1/spacequotas'
  const body = (name: string) => ({ ...quota(name, ['root:x']), metadata: { name } })

  it('are read once and trusted while the epoch stands, at most QUOTA_TRUST_MS', async () => {
    let lists = 0
    const deps = {
      ...hub.deps,
      caches: createHubCaches(),
      now: () => new Date(clock),
      objects: {
        ...hub.deps.objects,
        list: (o: Parameters<typeof hub.deps.objects.list>[0]) => {
          lists++
          return hub.deps.objects.list(o)
        },
      },
    }
    expect(await spaceQuotas(deps)).toEqual([])
    expect(await spaceQuotas(deps)).toEqual([])
    expect(lists).toBe(1)
    clock += QUOTA_TRUST_MS
    await spaceQuotas(deps)
    expect(lists).toBe(2)
    // Written through the API (the test hub's own caches forget at once; this one sees the epoch).
    expect((await hub.call('POST', QUOTAS, body('seen'))).status).toBe(201)
    clock += EPOCH_MAX_AGE_MS + 1
    expect((await spaceQuotas(deps)).map((q) => q.metadata.name)).toEqual(['seen'])
    expect(lists).toBe(3)
    expect((await hub.call('DELETE', `${QUOTAS}/seen`)).status).toBe(200)
    clock += EPOCH_MAX_AGE_MS + 1
    expect(await spaceQuotas(deps)).toEqual([])
  })
})
