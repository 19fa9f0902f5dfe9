/**
 * The tenancy policy's rules (lib/tenancy/policy.ts), pure: single-team while no Inventory or
 * PlacementGrant exists; granted after, with grants unioned per workload space, trust scopes by
 * name, the privileged allow list and the service provider's spaces never inventory or workload.
 */
import { describe, expect, it } from 'vitest'
import type { Inventory, PlacementGrant } from '../../../lib/apis/grants.ts'
import {
  isServiceProviderPath,
  privilegedResource,
  sameTrustScope,
  tenancyPolicy,
} from '../../../lib/tenancy/policy.ts'

const inventory = (space: string): Inventory => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'Inventory',
  metadata: { name: space.replaceAll(':', '-') },
  spec: { space },
})
const grant = (name: string, spec: PlacementGrant['spec']): PlacementGrant => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec,
})

describe('tenancy policy', () => {
  it('is single-team without objects: every space but the service provider’s', () => {
    const p = tenancyPolicy([], [])
    expect(p.singleTeam).toBe(true)
    expect(p.isInventory('root:team-a')).toBe(true)
    expect(p.isInventory('root:espw')).toBe(false)
    expect(p.isInventory('root:espw:x-mb-y:planted')).toBe(false)
    const a = p.grantOf('root:team-a')
    expect(a.allowsLocation('root:imw-1', {})).toBe(true)
    expect(a.allowsLocation('root:espw:m', {})).toBe(false)
    expect(a.allowsResource('rbac.authorization.k8s.io', 'clusterrolebindings')).toBe(true)
    expect(sameTrustScope(a, p.grantOf('root:team-b'))).toBe(true)
    const planted = p.grantOf('root:espw:m')
    expect(planted.allowsLocation('root:imw-1', {})).toBe(false)
    expect(sameTrustScope(planted, a)).toBe(false)
  })
  it('grants by inventory and selector, unioned over the grants covering a space', () => {
    const p = tenancyPolicy(
      [inventory('root:imw-1'), inventory('root:imw-2')],
      [
        grant('a', {
          workloadSpaces: ['root:team-a', 'root:team-a:*'],
          locations: [{ inventory: 'root:imw-1', selector: { matchLabels: { env: 'prod' } } }],
        }),
        grant('a-more', {
          workloadSpaces: ['root:team-a:apps'],
          locations: [{ inventory: 'root:imw-2' }, { inventory: 'root:not-inventory' }],
          resources: [{ group: 'rbac.authorization.k8s.io', resource: '*' }],
          upsyncAllNamespaces: true,
        }),
      ]
    )
    expect(p.singleTeam).toBe(false)
    expect(p.isInventory('root:imw-1')).toBe(true)
    expect(p.isInventory('root:team-a')).toBe(false)
    const top = p.grantOf('root:team-a')
    expect(top.allowsLocation('root:imw-1', { env: 'prod' })).toBe(true)
    expect(top.allowsLocation('root:imw-1', { env: 'dev' })).toBe(false)
    expect(top.allowsLocation('root:imw-2', {})).toBe(false)
    expect(top.allowsResource('rbac.authorization.k8s.io', 'roles')).toBe(false)
    expect(top.upsyncAllNamespaces).toBe(false)
    const apps = p.grantOf('root:team-a:apps')
    expect(apps.allowsLocation('root:imw-2', {})).toBe(true)
    expect(apps.allowsLocation('root:not-inventory', {})).toBe(false)
    expect(apps.allowsResource('rbac.authorization.k8s.io', 'roles')).toBe(true)
    expect(apps.allowsResource('admissionregistration.k8s.io', 'x')).toBe(false)
    expect(apps.upsyncAllNamespaces).toBe(true)
    const nobody = p.grantOf('root:team-b')
    expect(nobody.allowsLocation('root:imw-1', { env: 'prod' })).toBe(false)
    expect(nobody.scopes.size).toBe(0)
  })
  it('trust scopes: none by default (not even the spaces of one grant), shared by name', () => {
    const p = tenancyPolicy(
      [],
      [
        grant('a', { workloadSpaces: ['root:a', 'root:a3'] }),
        grant('b', { workloadSpaces: ['root:b'] }),
        grant('c', { workloadSpaces: ['root:c'], trustScope: 'shared' }),
        grant('d', { workloadSpaces: ['root:d'], trustScope: 'shared' }),
        grant('a2', { workloadSpaces: ['root:a', 'root:a2'], trustScope: 'team-a' }),
      ]
    )
    const g = (s: string) => p.grantOf(s)
    expect(sameTrustScope(g('root:a'), g('root:b'))).toBe(false)
    expect(sameTrustScope(g('root:a'), g('root:a3'))).toBe(false)
    expect(sameTrustScope(g('root:c'), g('root:d'))).toBe(true)
    expect(sameTrustScope(g('root:a'), g('root:a2'))).toBe(true)
    expect(sameTrustScope(g('root:x'), g('root:x'))).toBe(true)
    expect(sameTrustScope(g('root:x'), g('root:y'))).toBe(false)
  })
  it('privileged resources: cluster-scoped but Namespaces, RBAC and admission of any scope', () => {
    expect(privilegedResource('', 'namespaces', false)).toBe(false)
    expect(privilegedResource('', 'configmaps', true)).toBe(false)
    expect(privilegedResource('apps', 'deployments', true)).toBe(false)
    expect(privilegedResource('rbac.authorization.k8s.io', 'rolebindings', true)).toBe(true)
    expect(privilegedResource('rbac.authorization.k8s.io', 'clusterroles', false)).toBe(true)
    expect(privilegedResource('admissionregistration.k8s.io', 'x', false)).toBe(true)
    expect(privilegedResource('apiextensions.k8s.io', 'customresourcedefinitions', false)).toBe(
      true
    )
    expect(privilegedResource('storage.k8s.io', 'storageclasses', false)).toBe(true)
    expect(isServiceProviderPath('root:espwx')).toBe(false)
  })
})
