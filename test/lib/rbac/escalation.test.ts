/**
 * Escalation prevention: a Role or ClusterRole only with permissions held (or `escalate`), a
 * binding only to a role whose permissions are held in the binding's scope (or `bind` on it);
 * above all, a tenant allowed to write ClusterRoleBindings still cannot bind cluster-admin.
 */
import { describe, expect, it } from 'vitest'
import { isApiError } from '../../../lib/errors.ts'
import { checkEscalation } from '../../../lib/rbac/escalation.ts'
import {
  clusterRole,
  clusterRoleBinding,
  policy,
  role,
  roleBinding,
  user,
} from './policy-fixture.ts'

const ADMIN = clusterRole('cluster-admin', [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
])
const BINDER = clusterRole('binder', [
  {
    apiGroups: ['rbac.authorization.k8s.io'],
    resources: ['clusterrolebindings', 'rolebindings', 'roles'],
    verbs: ['create', 'update', 'patch', 'get'],
  },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
])
const CM_READER = clusterRole('cm-reader', [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
])
const tenant = user('system:serviceaccount:edgeplane-tenants:t-a')
const tenantSubject = [{ kind: 'ServiceAccount', name: 't-a', namespace: 'edgeplane-tenants' }]

function refusal(f: () => void) {
  try {
    f()
  } catch (e) {
    if (isApiError(e)) return { code: e.code, message: e.message }
    throw e
  }
  return undefined
}

describe('checkEscalation', () => {
  const p = policy([
    ADMIN,
    BINDER,
    CM_READER,
    clusterRoleBinding('tenant-binder', 'binder', tenantSubject),
  ])

  it('refuses a ClusterRoleBinding to cluster-admin from a user allowed to create bindings', () => {
    const r = refusal(() =>
      checkEscalation(p, tenant, {
        resource: 'clusterrolebindings',
        obj: clusterRoleBinding('take-over', 'cluster-admin', [{ kind: 'User', name: 'mallory' }]),
      })
    )
    expect(r?.code).toBe(403)
    expect(r?.message).toContain(
      'clusterrolebindings.rbac.authorization.k8s.io "take-over" is forbidden: user "system:serviceaccount:edgeplane-tenants:t-a"'
    )
    expect(r?.message).toContain('is attempting to grant RBAC permissions not currently held')
    expect(r?.message).toContain('{APIGroups:["*"], Resources:["*"], Verbs:["*"]}')
  })

  it('allows a binding to a role whose permissions are held', () => {
    const binding = clusterRoleBinding('ok', 'cm-reader', [{ kind: 'User', name: 'x' }])
    expect(
      refusal(() => checkEscalation(p, tenant, { resource: 'clusterrolebindings', obj: binding }))
    ).toBeUndefined()
  })

  it('judges a RoleBinding by what the writer holds in its namespace', () => {
    const q = policy([
      CM_READER,
      clusterRole('rb-writer', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['rolebindings'],
          verbs: ['create'],
        },
      ]),
      roleBinding('a', 'w', { kind: 'ClusterRole', name: 'rb-writer' }, tenantSubject),
      roleBinding('a', 'r', { kind: 'ClusterRole', name: 'cm-reader' }, tenantSubject),
      roleBinding('b', 'w', { kind: 'ClusterRole', name: 'rb-writer' }, tenantSubject),
    ])
    const grant = (ns: string) =>
      roleBinding(ns, 'g', { kind: 'ClusterRole', name: 'cm-reader' }, [
        { kind: 'User', name: 'x' },
      ])
    expect(
      refusal(() => checkEscalation(q, tenant, { resource: 'rolebindings', obj: grant('a') }))
    ).toBeUndefined()
    expect(
      refusal(() => checkEscalation(q, tenant, { resource: 'rolebindings', obj: grant('b') }))?.code
    ).toBe(403)
  })

  it('lets `bind` on the role stand in for holding it, and refuses a binding to a missing role', () => {
    const q = policy([
      ADMIN,
      clusterRole('may-bind-admin', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['cluster-admin'],
        },
      ]),
      clusterRoleBinding('b', 'may-bind-admin', tenantSubject),
    ])
    const to = (name: string) => clusterRoleBinding('x', name, [{ kind: 'User', name: 'x' }])
    expect(
      refusal(() =>
        checkEscalation(q, tenant, { resource: 'clusterrolebindings', obj: to('cluster-admin') })
      )
    ).toBeUndefined()
    expect(
      refusal(() =>
        checkEscalation(q, tenant, { resource: 'clusterrolebindings', obj: to('nope') })
      )?.message
    ).toContain('clusterrole "nope" not found')
  })

  it('refuses a Role granting more than held, unless the writer may escalate', () => {
    const wide = role('a', 'wide', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])
    const narrow = role('a', 'narrow', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['list'] },
    ])
    expect(
      refusal(() => checkEscalation(p, tenant, { resource: 'roles', obj: wide }))?.message
    ).toContain('{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}')
    expect(
      refusal(() => checkEscalation(p, tenant, { resource: 'roles', obj: narrow }))
    ).toBeUndefined()
    const q = policy([
      clusterRole('esc', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
      ]),
      clusterRoleBinding('e', 'esc', tenantSubject),
    ])
    expect(
      refusal(() => checkEscalation(q, tenant, { resource: 'roles', obj: wide }))
    ).toBeUndefined()
  })

  it('lets system:masters grant anything', () => {
    const obj = clusterRoleBinding('x', 'cluster-admin', [{ kind: 'User', name: 'x' }])
    expect(
      refusal(() =>
        checkEscalation(policy([]), user('admin', 'system:masters'), {
          resource: 'clusterrolebindings',
          obj,
        })
      )
    ).toBeUndefined()
  })
})
