/**
 * The where controller ignores placements of root:espw and the spaces below it (issue 35): an
 * EdgePlacement in a space under root:espw is no key of `listKeys`, wakes nothing and is woken by
 * nothing in `keysForEvent` (nor does a SyncTarget or Location there wake any key), and its key
 * runs to nothing, without a slice; a workload space's placement is listed and woken as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { whereController } from '../../../functions/reconcile-where/controller.ts'
import { keysForEvent } from '../../../functions/reconcile-where/keys-for-event.ts'
import { EDGE_PLACEMENTS, PLACEMENT_SLICES, SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { SERVICE_PROVIDER_OUTCOME } from '../../../lib/hub/service-provider-space.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, syncTarget } from './world.ts'

let hub: TestHub
let client: HubClient
const ids: Record<string, string> = {}
const SP = 'root:espw:provided'

const placement = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: { locationSelectors: [{}] },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  Object.assign(ids, await createSpaces(client, ['wmw']))
  await client.create(
    'root:espw',
    { group: 'tenancy.kcp.io', version: 'v1alpha1', resource: 'workspaces' },
    {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'provided' },
    }
  )
  ids.sp = (await client.space(SP)).id
  await client.create('root:wmw', EDGE_PLACEMENTS, placement('mine'))
  await client.create(SP, EDGE_PLACEMENTS, placement('planted'))
  await client.create(SP, SYNC_TARGETS, syncTarget('planted'))
})
afterAll(() => hub.close())

describe('the where controller and service-provider spaces', () => {
  it('lists no key of a placement there, and runs such a key to nothing', async () => {
    const c = whereController(client)
    expect((await c.listKeys(undefined, 100)).keys).toEqual([`${ids.wmw}/mine`])
    expect(await c.reconcile(`${ids.sp}/planted`)).toEqual({ outcome: SERVICE_PROVIDER_OUTCOME })
    expect(await client.list(SP, PLACEMENT_SLICES)).toEqual([])
  })

  it('maps no event of such a space to keys, and wakes no key of it', async () => {
    const planted = (await client.get(SP, EDGE_PLACEMENTS, 'planted')) as KubeObject
    const st = (await client.get(SP, SYNC_TARGETS, 'planted')) as KubeObject
    expect(await keysForEvent('EdgePlacement', planted, client)).toEqual([])
    expect(await keysForEvent('SyncTarget', st, client)).toEqual([])
    const mine = (await client.get('root:wmw', EDGE_PLACEMENTS, 'mine')) as KubeObject
    expect(await keysForEvent('EdgePlacement', mine, client)).toEqual([`${ids.wmw}/mine`])
    const other = {
      ...st,
      metadata: { ...st.metadata, annotations: { 'kcp.io/cluster': ids.wmw ?? '' } },
    }
    expect(await keysForEvent('SyncTarget', other, client)).toEqual([`${ids.wmw}/mine`])
  })
})
