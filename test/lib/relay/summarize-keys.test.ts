/**
 * Summarize keys from hub events, over a sequence of events sharing one slice index and one state:
 * reports in mailbox spaces (copy states, upsyncs), heartbeats only when they bring an edge back,
 * placements, slices, Locations and Summarizers; and through keysForEvent only when the relay
 * keeps the state.
 */
import { describe, expect, it } from 'vitest'
import { SUMMARIZE_STEP as WORKER_SUMMARIZE_STEP } from '../../../functions/reconcile-summarize/names.ts'
import { HEARTBEAT_STATUS_MS } from '../../../lib/edge/lease.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { keysForEvent } from '../../../lib/relay/event-keys.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import {
  createSummarizeKeysState,
  SUMMARIZE_STEP,
  summarizeKeys,
} from '../../../lib/relay/summarize-keys.ts'
import { livenessRule, REFRESH_GAP_MS, STALE_AFTER_MS } from '../../../lib/summarize/liveness.ts'

const uid = (n: number) => `0a1b2c3d-1111-2222-3333-00000000000${n}`
const mb = (n: number) => `inv1-mb-${uid(n)}`
const EDGE = 'edge.kcp.io'

function obj(
  kind: string,
  name: string,
  cluster: string,
  extra: Record<string, unknown> = {}
): KubeObject {
  return {
    apiVersion: 'v1',
    kind,
    metadata: { name, annotations: { 'kcp.io/cluster': cluster } },
    ...extra,
  }
}
const at = (ms: number) => new Date(ms).toISOString()
const syncTarget = (n: number, beat?: number) => ({
  ...obj('SyncTarget', `st${n}`, 'inv1'),
  metadata: { name: `st${n}`, uid: uid(n), annotations: { 'kcp.io/cluster': 'inv1' } },
  ...(beat === undefined ? {} : { status: { lastSyncerHeartbeatTime: at(beat) } }),
})
const mailboxWs = (n: number) =>
  obj('Workspace', mb(n), 'espw1', { spec: { cluster: `mbspace${n}` } })

const index = createSliceIndex()
index.set('ws1', 'p', [mb(1), mb(2)])
index.set('ws1', 'q', [mb(2)])
index.set('ws2', 'r', [mb(3)])
// A part of placement r (its destinations outgrew one slice): its mailboxes wake r's key.
index.set('ws2', 'r-k8s2x', [mb(4)], { placement: 'r' })
const state = createSummarizeKeysState()
const deps = { espwSpaceId: 'espw1', index, summarize: state }

type Step = [string, string, string, string, KubeObject, string[]]
const T0 = Date.parse('2025-01-01T00:00:00Z')
const steps: Step[] = [
  [
    'a mailbox Workspace is remembered, wakes nothing',
    'tenancy.kcp.io',
    'workspaces',
    'ADDED',
    mailboxWs(2),
    [],
  ],
  [
    'a copy state in that mailbox space wakes the placements naming it',
    'apps',
    'deployments',
    'MODIFIED',
    obj('Deployment', 'd', 'mbspace2'),
    ['ws1/p', 'ws1/q'],
  ],
  [
    'an upsynced object there too',
    '',
    'configmaps',
    'ADDED',
    obj('ConfigMap', 'c', 'mbspace2'),
    ['ws1/p', 'ws1/q'],
  ],
  [
    'a space not known as a mailbox wakes nothing',
    '',
    'configmaps',
    'ADDED',
    obj('ConfigMap', 'c', 'mbspace9'),
    [],
  ],
  [
    'a SyncTarget first seen with a heartbeat wakes its placements',
    EDGE,
    'synctargets',
    'MODIFIED',
    syncTarget(1, T0),
    ['ws1/p'],
  ],
  [
    'the next heartbeat a minute later wakes nothing',
    EDGE,
    'synctargets',
    'MODIFIED',
    syncTarget(1, T0 + 60_000),
    [],
  ],
  [
    'a heartbeat after a stale gap wakes them',
    EDGE,
    'synctargets',
    'MODIFIED',
    syncTarget(1, T0 + 60_000 + STALE_AFTER_MS),
    ['ws1/p'],
  ],
  [
    "the live edge's status refresh five minutes later wakes nothing",
    EDGE,
    'synctargets',
    'MODIFIED',
    syncTarget(1, T0 + 60_000 + STALE_AFTER_MS + HEARTBEAT_STATUS_MS + 30_000),
    [],
  ],
  [
    'a heartbeat after a gap longer than any refresh wakes them',
    EDGE,
    'synctargets',
    'MODIFIED',
    syncTarget(1, T0 + 60_000 + STALE_AFTER_MS + 2 * HEARTBEAT_STATUS_MS + 30_000 + REFRESH_GAP_MS),
    ['ws1/p'],
  ],
  ['a SyncTarget without heartbeat wakes nothing', EDGE, 'synctargets', 'ADDED', syncTarget(3), []],
  [
    'an EdgePlacement wakes its own key',
    EDGE,
    'edgeplacements',
    'MODIFIED',
    obj('EdgePlacement', 'p', 'ws1'),
    ['ws1/p'],
  ],
  [
    'a slice wakes its own key',
    EDGE,
    'singleplacementslices',
    'MODIFIED',
    obj('SinglePlacementSlice', 'r', 'ws2'),
    ['ws2/r'],
  ],
  [
    "a part slice wakes its placement's key",
    EDGE,
    'singleplacementslices',
    'MODIFIED',
    {
      ...obj('SinglePlacementSlice', 'r-k8s2x', 'ws2'),
      metadata: {
        name: 'r-k8s2x',
        annotations: { 'kcp.io/cluster': 'ws2' },
        ownerReferences: [
          { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', name: 'r', uid: 'u' },
        ],
      },
    },
    ['ws2/r'],
  ],
  ['mailbox 4 is remembered', 'tenancy.kcp.io', 'workspaces', 'ADDED', mailboxWs(4), []],
  [
    "a report in a part's mailbox wakes the placement, not the part",
    '',
    'configmaps',
    'ADDED',
    obj('ConfigMap', 'c', 'mbspace4'),
    ['ws2/r'],
  ],
  [
    'a Location wakes every placement',
    EDGE,
    'locations',
    'MODIFIED',
    obj('Location', 'l', 'inv1'),
    ['ws1/p', 'ws1/q', 'ws2/r'],
  ],
  [
    'a Summarizer wakes the placements of its space',
    EDGE,
    'summarizers',
    'ADDED',
    obj('Summarizer', 's', 'ws2'),
    ['ws2/r'],
  ],
  [
    'a StatusSummary wakes nothing',
    EDGE,
    'statussummaries',
    'MODIFIED',
    obj('StatusSummary', 's', 'ws2'),
    [],
  ],
  [
    'a deleted mailbox Workspace is forgotten',
    'tenancy.kcp.io',
    'workspaces',
    'DELETED',
    mailboxWs(2),
    [],
  ],
  [
    'then its space wakes nothing',
    'apps',
    'deployments',
    'MODIFIED',
    obj('Deployment', 'd', 'mbspace2'),
    [],
  ],
]

describe('summarizeKeys', () => {
  it.for(steps)('%s', ([_name, group, resource, type, object, want]) => {
    const keys = summarizeKeys({ group, resource }, type, object, deps)
    expect(keys).toEqual(want.map((key) => ({ step: SUMMARIZE_STEP, key })))
  })

  it('comes through keysForEvent only when the relay keeps the state', async () => {
    const base = { espwSpaceId: 'espw1', index, listEdgePlacements: async () => [] }
    const ev = { type: 'MODIFIED', object: obj('EdgePlacement', 'p', 'ws1') }
    const ref = { group: EDGE, resource: 'edgeplacements' }
    const without = await keysForEvent(ref, ev, base)
    const withState = await keysForEvent(ref, ev, {
      ...base,
      summarize: createSummarizeKeysState(),
    })
    expect(without.some((k) => k.step === SUMMARIZE_STEP)).toBe(false)
    expect(withState.filter((k) => k.step === SUMMARIZE_STEP)).toEqual([
      { step: SUMMARIZE_STEP, key: 'ws1/p' },
    ])
    expect(SUMMARIZE_STEP).toBe(WORKER_SUMMARIZE_STEP)
  })

  it('tells a return by the staleness rule the Worker is configured with', () => {
    const short = createSummarizeKeysState(livenessRule(30))
    const d = { espwSpaceId: 'espw1', index, summarize: short }
    const at = (ms: number) =>
      summarizeKeys({ group: EDGE, resource: 'synctargets' }, 'MODIFIED', syncTarget(1, ms), d)
    expect(at(T0)).toEqual([{ step: SUMMARIZE_STEP, key: 'ws1/p' }]) // first seen
    expect(at(T0 + 29_000)).toEqual([])
    // 30 s of silence is a return by this rule, none by the default one
    expect(at(T0 + 59_000)).toEqual([{ step: SUMMARIZE_STEP, key: 'ws1/p' }])
  })
})
