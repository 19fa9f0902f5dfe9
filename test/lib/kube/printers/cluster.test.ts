import { describe, expect, it } from 'vitest'
import {
  HORIZONTAL_POD_AUTOSCALER_PRINTER,
  INGRESS_CLASS_PRINTER,
  INGRESS_PRINTER,
  LEASE_PRINTER,
  NETWORK_POLICY_PRINTER,
  POD_DISRUPTION_BUDGET_PRINTER,
  PRIORITY_CLASS_PRINTER,
  ROLE_BINDING_PRINTER,
} from '../../../../lib/kube/printers/cluster.ts'
import type { Printer } from '../../../../lib/kube/printers/types.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:00:45Z')
const obj = (body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'x/v1',
  kind: 'X',
  metadata: { name: 'o', creationTimestamp: '2025-01-01T00:00:00Z' },
  ...(body as Record<string, never>),
})
const print = (p: Printer, body: Record<string, unknown>) => p.row(obj(body), { now: NOW }).cells

describe('INGRESS_PRINTER', () => {
  it('prints class, hosts, address and ports', () => {
    const ing = {
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host: 'a.example' }, {}],
        tls: [{ hosts: ['a.example'] }],
      },
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example' }] } },
    }
    expect(print(INGRESS_PRINTER, ing)).toEqual([
      'o',
      'nginx',
      'a.example',
      '1.2.3.4,lb.example',
      '80, 443',
      '45s',
    ])
    expect(print(INGRESS_PRINTER, {})).toEqual(['o', '<none>', '*', '', '80', '45s'])
  })

  it('lists at most three hosts', () => {
    const rules = ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.example` }))
    expect(print(INGRESS_PRINTER, { spec: { rules } })[2]).toBe(
      'a.example,b.example,c.example + 2 more...'
    )
  })
})

describe('other cluster printers', () => {
  it('prints ingress classes', () => {
    const params = { kind: 'Params', apiGroup: 'k8s.example', name: 'p' }
    expect(print(INGRESS_CLASS_PRINTER, { spec: { controller: 'c', parameters: params } })).toEqual(
      ['o', 'c', 'Params.k8s.example/p', '45s']
    )
    expect(print(INGRESS_CLASS_PRINTER, {})[2]).toBe('<none>')
  })

  it('prints bindings with their subjects in wide columns', () => {
    const rb = {
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'ann' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
    }
    expect(print(ROLE_BINDING_PRINTER, rb)).toEqual([
      'o',
      'ClusterRole/view',
      '45s',
      'ann, bob',
      'devs',
      'ns/sa',
    ])
  })

  it('prints priority classes, budgets, leases and network policies', () => {
    expect(print(PRIORITY_CLASS_PRINTER, { value: 1000, globalDefault: true })).toEqual([
      'o',
      1000,
      true,
      '45s',
      'PreemptLowerPriority',
    ])
    expect(print(PRIORITY_CLASS_PRINTER, { value: 1, preemptionPolicy: 'Never' })).toEqual([
      'o',
      1,
      false,
      '45s',
      'Never',
    ])
    expect(
      print(POD_DISRUPTION_BUDGET_PRINTER, {
        spec: { minAvailable: '50%' },
        status: { disruptionsAllowed: 2 },
      })
    ).toEqual(['o', '50%', 'N/A', 2, '45s'])
    expect(
      print(POD_DISRUPTION_BUDGET_PRINTER, { spec: { maxUnavailable: 1 } }).slice(1, 4)
    ).toEqual(['N/A', '1', 0])
    expect(print(LEASE_PRINTER, { spec: { holderIdentity: 'me' } })).toEqual(['o', 'me', '45s'])
    expect(print(NETWORK_POLICY_PRINTER, { spec: { podSelector: {} } })).toEqual([
      'o',
      '<none>',
      '45s',
    ])
  })

  it('prints autoscalers', () => {
    const hpa = {
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
      status: { currentReplicas: 2 },
    }
    expect(print(HORIZONTAL_POD_AUTOSCALER_PRINTER, hpa)).toEqual([
      'o',
      'Deployment/web',
      '<none>',
      '<unset>',
      5,
      2,
      '45s',
    ])
    expect(print(HORIZONTAL_POD_AUTOSCALER_PRINTER, { spec: { minReplicas: 1 } })[3]).toBe('1')
  })
})
