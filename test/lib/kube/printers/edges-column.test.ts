/**
 * The center's EDGES column (lib/kube/printers/edges-column.ts): before AGE on the kinds whose
 * status is aggregated over edges, showing the status-from annotation as it is; never on an edge
 * cluster's printers, nor on other kinds.
 */
import { describe, expect, it } from 'vitest'
import { printerFor } from '../../../../lib/kube/printers/registry.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2026-12-01T12:00:00Z')
const at = (group: string, kind: string, center: boolean) =>
  printerFor({ group, kind, source: 'builtin' }, 'v1', { center })
const names = (group: string, kind: string, center: boolean) =>
  at(group, kind, center).columns.map((c) => c.name)

const deployment = (annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    creationTimestamp: '2026-12-01T11:59:00Z',
    ...(annotations ? { annotations } : {}),
  },
  spec: { replicas: 3 },
  status: { readyReplicas: 3, updatedReplicas: 3, availableReplicas: 3 },
})

describe('the EDGES column', () => {
  it('comes before AGE at the center, and not at an edge', () => {
    expect(names('apps', 'Deployment', true).slice(0, 6)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Edges',
      'Age',
    ])
    expect(names('apps', 'Deployment', false)).not.toContain('Edges')
  })

  it.each([
    ['apps', 'ReplicaSet'],
    ['apps', 'StatefulSet'],
    ['apps', 'DaemonSet'],
    ['batch', 'Job'],
    ['', 'Pod'],
  ])('is on %s/%s at the center', (group, kind) => {
    const cols = names(group, kind, true)
    expect(cols).toContain('Edges')
    expect(cols.indexOf('Edges')).toBe(cols.indexOf('Age') - 1)
  })

  it.each([
    ['', 'ConfigMap'],
    ['', 'Service'],
    ['batch', 'CronJob'],
  ])('is not on %s/%s', (group, kind) => {
    expect(names(group, kind, true)).not.toContain('Edges')
  })

  it('prints the annotation as it is, <none> without one, in its column', () => {
    const p = at('apps', 'Deployment', true)
    const edges = p.columns.findIndex((c) => c.name === 'Edges')
    const row = (o: KubeObject) => p.row(o, { now: NOW }).cells
    const cells = row(deployment({ 'edge.kcp.io/status-from': '1/2 (1 stale)' }))
    expect(cells.slice(0, edges + 2)).toEqual(['web', '3/3', 3, 3, '1/2 (1 stale)', '60s'])
    expect(row(deployment())[edges]).toBe('<none>')
    expect(cells).toHaveLength(p.columns.length)
  })
})
