/**
 * What the edge grants each tenant, from the planned entries: cluster-scoped kinds by name only,
 * namespaced kinds, and the namespaces a tenant may use — its own, unclaimed shared ones, never
 * another tenant's, the agent's, the bootstrap's or kube's.
 */
import { describe, expect, it } from 'vitest'
import type { Planned } from '../../../lib/edge-agent/selection.ts'
import { tenantAccount, tenantUser } from '../../../lib/edge-agent/tenant-identity.ts'
import { objectsOf, rightsOf, usableNamespaces } from '../../../lib/edge-agent/tenant-rights.ts'

/** `group/resource/namespace/name` of tenants `tenants`, as planned. */
const planned = (key: string, tenants: string[]): Planned => {
  const [group = '', resource = '', namespace = '', name = ''] = key.split('/')
  return {
    entry: {
      group,
      version: 'v1',
      resource,
      namespace,
      name,
      hash: 'h',
      generation: 1,
      rv: 1,
      tenants,
    },
    key,
    phase: 2,
    body: {},
  }
}

const rulesOf = (o: { obj: unknown } | undefined) =>
  (o?.obj as { rules?: unknown[] } | undefined)?.rules

describe('tenant rights', () => {
  const entries = [
    planned('/namespaces//a-ns', ['a']),
    planned('/configmaps/a-ns/x', ['a']),
    planned('/namespaces//b-ns', ['b']),
    planned('/configmaps/b-ns/x', ['a']),
    planned('apps/deployments/default/web', ['a']),
    planned('/pods/edgeplane-system/p', ['a']),
    planned('/pods/kube-system/p', ['a']),
    planned('/secrets/agent-ns/s', ['a']),
    planned('rbac.authorization.k8s.io/clusterroles//viewer', ['a']),
  ]

  it('lets a tenant use its own and unclaimed namespaces only', () => {
    expect(usableNamespaces(entries, 'agent-ns').get('a')).toEqual(['a-ns', 'default'])
  })

  it('keeps an unclaimed namespace with the tenants bound there first and their merge partners', () => {
    const implied = [
      planned('/configmaps/shared/x', ['a']),
      planned('/configmaps/shared/y', ['b']),
      planned('/configmaps/both/z', ['c', 'd']),
      planned('/configmaps/free/w', ['d']),
      planned('/configmaps/free/v', ['e']),
    ]
    const held = new Map([
      ['shared', new Set(['b'])],
      ['both', new Set(['c'])],
    ])
    const usable = usableNamespaces(implied, 'agent-ns', held)
    expect(usable.get('a')).toEqual([])
    expect(usable.get('b')).toEqual(['shared'])
    expect(usable.get('c')).toEqual(['both'])
    // d was merged with c, so it shares c's namespace; free goes to the first by id
    expect(usable.get('d')).toEqual(['both', 'free'])
    expect(usable.get('e')).toEqual([])
  })

  it('grants cluster-scoped kinds by name and namespaced kinds by kind', () => {
    const [sa, cluster, namespaced, binding] = objectsOf('a', rightsOf(entries).get('a')!)
    expect(sa?.ref).toMatchObject({ namespace: 'edgeplane-tenants', name: 't-a' })
    expect(rulesOf(cluster)).toEqual([
      expect.objectContaining({
        apiGroups: [''],
        resources: ['namespaces'],
        resourceNames: ['a-ns'],
      }),
      expect.objectContaining({
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
        resourceNames: ['viewer'],
      }),
    ])
    expect(rulesOf(namespaced)).toEqual([
      expect.objectContaining({ apiGroups: [''], resources: ['configmaps', 'pods', 'secrets'] }),
      expect.objectContaining({ apiGroups: ['apps'], resources: ['deployments'] }),
    ])
    expect(binding?.obj).toMatchObject({ roleRef: { name: 'edgeplane-tenant:t-a' } })
  })

  it('names a tenant by its space id, DNS-safe', () => {
    expect(tenantAccount('0a1b2c3d4e5f6g7h')).toBe('t-0a1b2c3d4e5f6g7h')
    expect(tenantUser('Root_X')).toBe('system:serviceaccount:edgeplane-tenants:t-root-x')
  })
})
