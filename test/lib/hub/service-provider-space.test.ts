/**
 * Which space ids are root:espw or below (lib/hub/service-provider-space.ts): root:espw, a mailbox
 * and a space under a mailbox are; root and a workload space are not; an answer is kept (one
 * lookup per id), an unknown id counts as none and is asked again; a failed lookup throws rather
 * than answer; `withoutServiceProvider` drops exactly the objects of such spaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import {
  serviceProviderCheckOver,
  serviceProviderSpaceCheck,
  withoutServiceProvider,
} from '../../../lib/hub/service-provider-space.ts'
import { ensureSpace } from '../../../lib/hub/spaces.ts'
import { CLUSTER_ANNOTATION } from '../../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const MB = 'abc123-mb-0f8fad5b-d9cb-469f-a165-70867728950e'
let hub: TestHub
let client: HubClient
const ids: Record<string, string> = {}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  const ws = (name: string) => ({
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
  })
  await client.create('root', WORKSPACES, ws('wmw'))
  await client.create('root:espw', WORKSPACES, ws(MB))
  ids.espw = (await client.space('root:espw')).id
  ids.wmw = (await client.space('root:wmw')).id
  ids.mb = (await client.space(`root:espw:${MB}`)).id
  ids.below = (await ensureSpace(hub.deps.kv, `root:espw:${MB}:planted`)).id
})
afterAll(() => hub.close())

describe('service-provider spaces', () => {
  it('are root:espw and everything below it', async () => {
    const check = serviceProviderSpaceCheck(hub.deps.kv)
    for (const k of ['espw', 'mb', 'below']) expect(await check(ids[k] ?? ''), k).toBe(true)
    for (const id of ['root', ids.wmw ?? '', 'no-such-space'])
      expect(await check(id), id).toBe(false)
  })

  it('asks for a known id once, for an unknown one every time, and throws on a failed lookup', async () => {
    let asked = 0
    let fail = false
    const counted: HubClient = {
      ...client,
      space: (ref) => {
        asked++
        if (fail) return Promise.reject(new Error('store down'))
        return client.space(ref)
      },
    }
    const check = serviceProviderCheckOver(counted)
    expect(await check(ids.mb ?? '')).toBe(true)
    expect(await check(ids.mb ?? '')).toBe(true)
    expect(asked).toBe(1)
    expect(await check('nosuchspace00000')).toBe(false)
    expect(await check('nosuchspace00000')).toBe(false)
    expect(asked).toBe(3)
    fail = true
    await expect(check(ids.wmw ?? '')).rejects.toThrow('store down')
  })

  it('leaves out exactly the objects of such spaces', async () => {
    const obj = (space: string, name: string) => ({
      metadata: { name, annotations: { [CLUSTER_ANNOTATION]: space } },
    })
    const objects = [
      obj(ids.wmw ?? '', 'a'),
      obj(ids.mb ?? '', 'b'),
      obj(ids.below ?? '', 'c'),
      obj('root', 'd'),
    ]
    const kept = await withoutServiceProvider(objects, serviceProviderSpaceCheck(hub.deps.kv))
    expect(kept.map((o) => o.metadata.name)).toEqual(['a', 'd'])
  })
})
