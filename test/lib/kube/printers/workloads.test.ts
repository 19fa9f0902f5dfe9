import { describe, expect, it } from 'vitest'
import type { Printer } from '../../../../lib/kube/printers/types.ts'
import {
  DAEMON_SET_PRINTER,
  DEPLOYMENT_PRINTER,
  REPLICA_SET_PRINTER,
  REPLICATION_CONTROLLER_PRINTER,
  STATEFUL_SET_PRINTER,
} from '../../../../lib/kube/printers/workloads.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:10:00Z')
const obj = (kind: string, body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name: 'w', creationTimestamp: '2025-01-01T00:00:00Z' },
  ...(body as Record<string, never>),
})
const template = {
  spec: {
    containers: [
      { name: 'web', image: 'nginx' },
      { name: 'log', image: 'fluent' },
    ],
  },
}
const print = (p: Printer, o: KubeObject) => p.row(o, { now: NOW }).cells
const names = (p: Printer) => p.columns.map((c) => c.name)

describe('workload printers', () => {
  it('prints a Deployment as READY ready/desired with wide containers and selector', () => {
    const d = obj('Deployment', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    })
    expect(names(DEPLOYMENT_PRINTER)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ])
    expect(print(DEPLOYMENT_PRINTER, d)).toEqual([
      'w',
      '2/3',
      3,
      2,
      '10m',
      'web,log',
      'nginx,fluent',
      'app=web',
    ])
  })

  it('counts unset replicas as 1 and missing status as 0', () => {
    expect(print(DEPLOYMENT_PRINTER, obj('Deployment', {})).slice(1, 4)).toEqual(['0/1', 0, 0])
    expect(print(STATEFUL_SET_PRINTER, obj('StatefulSet', { spec: { template } }))).toEqual([
      'w',
      '0/1',
      '10m',
      'web,log',
      'nginx,fluent',
    ])
  })

  it('prints ReplicaSets and ReplicationControllers with DESIRED, CURRENT, READY', () => {
    const rs = obj('ReplicaSet', {
      spec: { replicas: 2, template, selector: { matchLabels: { a: 'b' } } },
      status: { replicas: 2, readyReplicas: 1 },
    })
    expect(print(REPLICA_SET_PRINTER, rs)).toEqual([
      'w',
      2,
      2,
      1,
      '10m',
      'web,log',
      'nginx,fluent',
      'a=b',
    ])
    const rc = obj('ReplicationController', {
      spec: { replicas: 1, template, selector: { a: 'b' } },
    })
    expect(print(REPLICATION_CONTROLLER_PRINTER, rc)).toEqual([
      'w',
      1,
      0,
      0,
      '10m',
      'web,log',
      'nginx,fluent',
      'a=b',
    ])
  })

  it('prints DaemonSets with their node selector', () => {
    const ds = obj('DaemonSet', {
      spec: { template: { spec: { ...template.spec, nodeSelector: { disk: 'ssd' } } } },
      status: {
        desiredNumberScheduled: 4,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 1,
        numberAvailable: 2,
      },
    })
    expect(print(DAEMON_SET_PRINTER, ds)).toEqual([
      'w',
      4,
      3,
      2,
      1,
      2,
      'disk=ssd',
      '10m',
      'web,log',
      'nginx,fluent',
      '<none>',
    ])
  })
})
