import { describe, expect, it } from 'vitest'
import {
  CUSTOMIZER_PRINTER,
  EDGE_PLACEMENT_PRINTER,
  LOCATION_PRINTER,
  SINGLE_PLACEMENT_SLICE_PRINTER,
  SYNC_TARGET_PRINTER,
  SYNCER_CONFIG_PRINTER,
  WORKSPACE_PRINTER,
} from '../../../../lib/kube/printers/edge.ts'
import type { Printer } from '../../../../lib/kube/printers/types.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:02:00Z')
const obj = (body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'X',
  metadata: { name: 'o', creationTimestamp: '2025-01-01T00:00:00Z' },
  ...(body as Record<string, never>),
})
const print = (p: Printer, body: Record<string, unknown>) => p.row(obj(body), { now: NOW }).cells
const names = (p: Printer) => p.columns.map((c) => c.name)

describe('kcp and edge printers', () => {
  it('prints workspaces with type, phase and URL', () => {
    expect(names(WORKSPACE_PRINTER)).toEqual(['Name', 'Type', 'Phase', 'URL', 'Age'])
    const ws = {
      spec: { type: { name: 'universal', path: 'root' } },
      status: { phase: 'Ready', URL: 'https://hub/clusters/root:o' },
    }
    expect(print(WORKSPACE_PRINTER, ws)).toEqual([
      'o',
      'universal',
      'Ready',
      'https://hub/clusters/root:o',
      '2m',
    ])
    expect(print(WORKSPACE_PRINTER, {})).toEqual(['o', null, null, null, '2m'])
  })

  it('prints sync targets as nodes: Ready, its reason and the agent version', () => {
    expect(names(SYNC_TARGET_PRINTER)).toEqual(['Name', 'Ready', 'Reason', 'Version', 'Age'])
    const live = {
      status: {
        lastSyncerHeartbeatTime: '2025-01-01T00:01:50Z',
        agentVersion: '0.4.0',
        conditions: [
          { type: 'Inventory', status: 'False', reason: 'NotInventorySpace' },
          { type: 'Ready', status: 'True', reason: 'Heartbeating' },
        ],
      },
    }
    expect(print(SYNC_TARGET_PRINTER, live)).toEqual(['o', 'True', 'Heartbeating', '0.4.0', '2m'])
    const stale = {
      status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'Stale' }] },
    }
    expect(print(SYNC_TARGET_PRINTER, stale)).toEqual(['o', 'Unknown', 'Stale', null, '2m'])
    expect(print(SYNC_TARGET_PRINTER, {})).toEqual(['o', null, null, null, '2m'])
  })

  it('prints syncer configs with their heartbeat field', () => {
    expect(
      print(SYNCER_CONFIG_PRINTER, { status: { lastSyncerHeartbeatTime: '2025-01-01T00:01:50Z' } })
    ).toEqual(['o', '10s', '2m'])
    expect(print(SYNCER_CONFIG_PRINTER, {})).toEqual(['o', null, '2m'])
  })

  it('prints locations, placements, slices and customizers', () => {
    const loc = {
      spec: { resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' } },
    }
    expect(print(LOCATION_PRINTER, loc)).toEqual(['o', 'synctargets.edge.kcp.io', '2m'])
    expect(print(LOCATION_PRINTER, { spec: { resource: { resource: 'nodes' } } })[1]).toBe('nodes')
    expect(print(LOCATION_PRINTER, {})[1]).toBeNull()
    expect(names(EDGE_PLACEMENT_PRINTER)).toEqual(['Name', 'Locations', 'Ready', 'Reason', 'Age'])
    const ep = {
      status: {
        matchingLocationCount: 2,
        conditions: [{ type: 'Ready', status: 'False', reason: 'EdgeProblems' }],
      },
    }
    expect(print(EDGE_PLACEMENT_PRINTER, ep)).toEqual(['o', 2, 'False', 'EdgeProblems', '2m'])
    expect(print(EDGE_PLACEMENT_PRINTER, {})).toEqual(['o', null, null, null, '2m'])
    expect(print(SINGLE_PLACEMENT_SLICE_PRINTER, { destinations: [{}, {}, {}] })).toEqual([
      'o',
      3,
      '2m',
    ])
    expect(print(CUSTOMIZER_PRINTER, { replacements: [{ path: '$.a', value: '1' }] })).toEqual([
      'o',
      1,
      '2m',
    ])
    expect(print(CUSTOMIZER_PRINTER, {})[1]).toBe(0)
  })
})
