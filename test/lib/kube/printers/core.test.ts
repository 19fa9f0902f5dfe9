import { describe, expect, it } from 'vitest'
import {
  accessModes,
  CONFIG_MAP_PRINTER,
  NAMESPACE_PRINTER,
  NODE_PRINTER,
  PERSISTENT_VOLUME_CLAIM_PRINTER,
  RESOURCE_QUOTA_PRINTER,
  SECRET_PRINTER,
  SERVICE_ACCOUNT_PRINTER,
  SERVICE_PRINTER,
} from '../../../../lib/kube/printers/core.ts'
import type { Printer } from '../../../../lib/kube/printers/types.ts'
import type { KubeObject, ObjectMeta } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:01:00Z')
const obj = (body: Record<string, unknown>, meta: ObjectMeta = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name: 'o', creationTimestamp: '2025-01-01T00:00:00Z', ...meta },
  ...(body as Record<string, never>),
})
const print = (p: Printer, o: KubeObject) => p.row(o, { now: NOW }).cells

describe('SERVICE_PRINTER', () => {
  it('prints type, IPs and ports per service type', () => {
    const np = obj({
      spec: {
        type: 'NodePort',
        clusterIPs: ['10.0.0.1'],
        selector: { app: 'a' },
        ports: [
          { port: 80, nodePort: 30080, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      },
    })
    expect(print(SERVICE_PRINTER, np)).toEqual([
      'o',
      'NodePort',
      '10.0.0.1',
      '<none>',
      '80:30080/TCP,53/UDP',
      '60s',
      'app=a',
    ])
    expect(print(SERVICE_PRINTER, obj({ spec: { ports: [{ port: 443 }] } }))).toEqual([
      'o',
      'ClusterIP',
      '<none>',
      '<none>',
      '443/TCP',
      '60s',
      '<none>',
    ])
    expect(
      print(SERVICE_PRINTER, obj({ spec: { clusterIP: 'None', externalIPs: ['1.2.3.4'] } })).slice(
        2,
        5
      )
    ).toEqual(['None', '1.2.3.4', '<none>'])
  })

  it('prints load balancer and external name addresses', () => {
    const lb = (status: unknown, external?: string[]) =>
      print(
        SERVICE_PRINTER,
        obj({ spec: { type: 'LoadBalancer', externalIPs: external }, status })
      )[3]
    expect(lb({})).toBe('<pending>')
    expect(
      lb({
        loadBalancer: {
          ingress: [{ ip: '5.6.7.8' }, { hostname: 'lb.example' }, { ip: '5.6.7.8' }],
        },
      })
    ).toBe('5.6.7.8,lb.example')
    expect(lb({ loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } }, ['9.9.9.9'])).toBe(
      '5.6.7.8,9.9.9.9'
    )
    expect(
      print(SERVICE_PRINTER, obj({ spec: { type: 'ExternalName', externalName: 'db.example' } }))[3]
    ).toBe('db.example')
    expect(print(SERVICE_PRINTER, obj({ spec: { type: 'Weird' } }))[3]).toBe('<unknown>')
  })
})

describe('small core printers', () => {
  it('prints namespaces, config maps, secrets and service accounts', () => {
    expect(print(NAMESPACE_PRINTER, obj({ status: { phase: 'Terminating' } }))).toEqual([
      'o',
      'Terminating',
      '60s',
    ])
    expect(print(NAMESPACE_PRINTER, obj({}))[1]).toBe('Active')
    expect(print(CONFIG_MAP_PRINTER, obj({ data: { a: '1' }, binaryData: { b: 'AA==' } }))).toEqual(
      ['o', 2, '60s']
    )
    expect(
      print(SECRET_PRINTER, obj({ type: 'kubernetes.io/tls', data: { a: 'x', b: 'y' } }))
    ).toEqual(['o', 'kubernetes.io/tls', 2, '60s'])
    expect(print(SECRET_PRINTER, obj({}))).toEqual(['o', 'Opaque', 0, '60s'])
    expect(print(SERVICE_ACCOUNT_PRINTER, obj({ secrets: [{ name: 's' }] }))).toEqual([
      'o',
      1,
      '60s',
    ])
  })

  it('prints node status, roles and wide system info', () => {
    const node = obj(
      {
        spec: { unschedulable: true },
        status: {
          conditions: [{ type: 'Ready', status: 'True' }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
          nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian' },
        },
      },
      { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' } }
    )
    expect(print(NODE_PRINTER, node)).toEqual([
      'o',
      'Ready,SchedulingDisabled',
      'control-plane,edge',
      '60s',
      'v1.32.0',
      '10.0.0.5',
      '<none>',
      'Debian',
      '<unknown>',
      '<unknown>',
    ])
    expect(
      print(
        NODE_PRINTER,
        obj({ status: { conditions: [{ type: 'Ready', status: 'False' }] } })
      ).slice(1, 3)
    ).toEqual(['NotReady', '<none>'])
    expect(print(NODE_PRINTER, obj({}))[1]).toBe('Unknown')
  })

  it('prints claims bound and unbound', () => {
    const bound = obj({
      spec: { volumeName: 'pv1', storageClassName: 'fast', volumeMode: 'Filesystem' },
      status: {
        phase: 'Bound',
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      },
    })
    expect(print(PERSISTENT_VOLUME_CLAIM_PRINTER, bound)).toEqual([
      'o',
      'Bound',
      'pv1',
      '1Gi',
      'RWO,RWX',
      'fast',
      '<unset>',
      '60s',
      'Filesystem',
    ])
    const pending = obj(
      {},
      {
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' },
        deletionTimestamp: '2025-01-01T00:00:30Z',
      }
    )
    expect(print(PERSISTENT_VOLUME_CLAIM_PRINTER, pending)).toEqual([
      'o',
      'Terminating',
      '',
      '',
      '',
      'old',
      '<unset>',
      '60s',
      '<unset>',
    ])
    expect(accessModes(['ReadWriteOncePod', 'ReadOnlyMany'])).toBe('ROX,RWOP')
  })

  it('prints quota usage split into requests and limits', () => {
    const q = obj({
      status: {
        hard: { 'limits.cpu': '2', pods: '10', 'requests.cpu': '1' },
        used: { pods: '3', 'requests.cpu': '500m' },
      },
    })
    expect(print(RESOURCE_QUOTA_PRINTER, q)).toEqual([
      'o',
      'pods: 3/10, requests.cpu: 500m/1',
      'limits.cpu: 0/2',
      '60s',
    ])
  })
})
