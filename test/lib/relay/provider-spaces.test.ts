/**
 * The relay's service-provider spaces (lib/relay/provider-spaces.ts) and what they silence in
 * event-keys.ts (issue 35, breach 1): root:espw, a mailbox and a space made under a mailbox are
 * known from Workspace events; an EdgePlacement, SinglePlacementSlice, SyncTarget, Location,
 * Summarizer or child Workspace in them wakes no key of any step (the SyncTarget no mailbox, the
 * slice no translation, the placement no where or summarize key), and the where keys every
 * SyncTarget event wakes leave their placements out; a mailbox Workspace of root:espw and a
 * workload object reported into a mailbox still wake what they did.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { type EventKeysDeps, keysForEvent } from '../../../lib/relay/event-keys.ts'
import { createProviderSpaces } from '../../../lib/relay/provider-spaces.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import { createSummarizeKeysState } from '../../../lib/relay/summarize-keys.ts'

const UID = '0a1b2c3d-1111-2222-3333-444455556666'
const MB = `inv1-mb-${UID}`
const EDGE = 'edge.kcp.io'

const at = (kind: string, name: string, cluster: string, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind,
    metadata: { name, uid: UID, annotations: { 'kcp.io/cluster': cluster } },
    ...extra,
  }) as KubeObject
const workspace = (name: string, parent: string, id: string) =>
  at('Workspace', name, parent, { spec: { cluster: id } })

function world(placements: KubeObject[]) {
  const providers = createProviderSpaces('espw1')
  const d: EventKeysDeps = {
    espwSpaceId: 'espw1',
    index: createSliceIndex(),
    listEdgePlacements: async () => placements,
    providers,
    summarize: createSummarizeKeysState(),
  }
  const send = (group: string, resource: string, obj: KubeObject, type = 'ADDED') =>
    keysForEvent({ group, resource }, { type, object: obj }, d)
  return { d, providers, send }
}

describe('provider spaces', () => {
  it('are root:espw and every space below it, learnt from Workspace events', () => {
    const p = createProviderSpaces('espw1')
    p.observe(workspace(MB, 'espw1', 'mb1'))
    p.observe(workspace('planted', 'mb1', 'planted1'))
    p.observe(workspace('wmw', 'root', 'ws1'))
    for (const id of ['espw1', 'mb1', 'planted1']) expect(p.has(id), id).toBe(true)
    for (const id of ['root', 'ws1', 'unknown', '']) expect(p.has(id), id).toBe(false)
  })
})

describe('control objects in provider spaces', () => {
  it('wake no key of any step; the same kinds in a workload space still do', async () => {
    const planted = at('EdgePlacement', 'planted', 'mb1')
    const { send } = world([planted, at('EdgePlacement', 'mine', 'ws1')])
    expect(await send('tenancy.kcp.io', 'workspaces', workspace(MB, 'espw1', 'mb1'))).not.toEqual(
      []
    )
    const slice = at('SinglePlacementSlice', 'planted', 'mb1', {
      destinations: [
        { cluster: 'inv1', locationName: 'l', syncTargetName: 's', syncTargetUID: UID },
      ],
    })
    const quiet: [string, KubeObject][] = [
      ['edgeplacements', planted],
      ['singleplacementslices', slice],
      ['synctargets', at('SyncTarget', 'planted', 'mb1')],
      ['locations', at('Location', 'planted', 'mb1')],
      ['summarizers', at('Summarizer', 'planted', 'mb1')],
    ]
    for (const [resource, obj] of quiet)
      expect(await send(EDGE, resource, obj), resource).toEqual([])
    expect(await send('tenancy.kcp.io', 'workspaces', workspace('planted', 'mb1', 'p1'))).toEqual(
      []
    )
    expect(await send(EDGE, 'synctargets', at('SyncTarget', 'deep', 'p1'))).toEqual([])
    const real = await send(EDGE, 'synctargets', at('SyncTarget', 'e1', 'inv1'))
    expect(real).toContainEqual({ step: 'mailbox', key: `inv1-mb-${UID}` })
    expect(real.filter((k) => k.step === 'where')).toEqual([{ step: 'where', key: 'ws1/mine' }])
  })

  it('leaves workload objects reported into a mailbox waking its placements', async () => {
    const { send } = world([])
    await send('tenancy.kcp.io', 'workspaces', workspace(MB, 'espw1', 'mb1'))
    const slice = at('SinglePlacementSlice', 'p', 'ws1', {
      destinations: [
        { cluster: 'inv1', locationName: 'l', syncTargetName: 's', syncTargetUID: UID },
      ],
      metadata: {
        name: 'p',
        annotations: { 'kcp.io/cluster': 'ws1' },
        ownerReferences: [
          { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', name: 'p', uid: UID },
        ],
      },
    })
    await send(EDGE, 'singleplacementslices', slice)
    const keys = await send('', 'configmaps', at('ConfigMap', 'c', 'mb1'), 'MODIFIED')
    expect(keys).toContainEqual({ step: 'summarize', key: 'ws1/p' })
  })
})
