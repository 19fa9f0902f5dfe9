/**
 * The agent's own objects as protectedReason tells them: its namespace and what is in it, its
 * ClusterRole and binding, and the tenant identities it keeps — `edgeplane-tenants` and what is
 * in it, and RBAC named `edgeplane-tenant:*` — while a tenant's ordinary objects are not.
 */
import { describe, expect, it } from 'vitest'
import { agentSelf, protectedReason } from '../../../lib/edge-agent/self-protection.ts'

const self = agentSelf('edgeplane-system')
const rbac = 'rbac.authorization.k8s.io'
const r = (group: string, resource: string, namespace: string, name: string) => ({
  group,
  resource,
  namespace,
  name,
})

describe('protectedReason', () => {
  it('protects the tenant identities as the agent itself', () => {
    expect(protectedReason(r('', 'serviceaccounts', 'edgeplane-tenants', 't-x'), self)).toContain(
      'tenant identities'
    )
    expect(protectedReason(r('', 'namespaces', '', 'edgeplane-tenants'), self)).toContain(
      'tenant identities'
    )
    expect(
      protectedReason(r(rbac, 'clusterrolebindings', '', 'edgeplane-tenant:t-x'), self)
    ).toContain('tenant RBAC')
    expect(
      protectedReason(r(rbac, 'rolebindings', 'shop', 'edgeplane-tenant:t-x'), self)
    ).toContain('tenant RBAC')
  })

  it('leaves a tenant its own objects, RBAC included', () => {
    expect(protectedReason(r(rbac, 'rolebindings', 'shop', 'readers'), self)).toBeUndefined()
    expect(protectedReason(r('', 'configmaps', 'shop', 'cfg'), self)).toBeUndefined()
  })
})
