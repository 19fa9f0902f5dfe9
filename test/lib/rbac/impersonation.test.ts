/**
 * Impersonation as kube-apiserver checks it: `impersonate` on serviceaccounts (by name, in the
 * account's namespace) for a service-account user, on users for another, on groups for each
 * group; the groups an impersonated user gets; and the headers refused outright.
 */
import { describe, expect, it } from 'vitest'
import { isApiError } from '../../../lib/errors.ts'
import { impersonate, impersonationOf } from '../../../lib/rbac/impersonation.ts'
import {
  clusterRole,
  clusterRoleBinding,
  policy,
  role,
  roleBinding,
  user,
} from './policy-fixture.ts'

const agent = user(
  'system:serviceaccount:edgeplane-system:edgeplane-agent',
  'system:serviceaccounts'
)
const agentSubject = [
  { kind: 'ServiceAccount', name: 'edgeplane-agent', namespace: 'edgeplane-system' },
]

const p = policy([
  role('edgeplane-tenants', 'imp', [
    { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  ]),
  roleBinding('edgeplane-tenants', 'imp', { kind: 'Role', name: 'imp' }, agentSubject),
  clusterRole('imp-bob', [
    { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] },
    { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['devs'] },
  ]),
  clusterRoleBinding('imp-bob', 'imp-bob', [{ kind: 'User', name: 'alice' }]),
])

function error(f: () => unknown) {
  try {
    f()
  } catch (e) {
    if (isApiError(e)) return { code: e.code, message: e.message }
    throw e
  }
  return undefined
}

describe('impersonate', () => {
  it('lets the agent act as a service account of the tenants namespace, with its fixed groups', () => {
    const as = impersonate(p, agent, {
      user: 'system:serviceaccount:edgeplane-tenants:t-1',
      groups: undefined,
    })
    expect(as).toEqual({
      name: 'system:serviceaccount:edgeplane-tenants:t-1',
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:edgeplane-tenants',
        'system:authenticated',
      ],
    })
  })

  it('refuses a service account elsewhere with the impersonate request as kube words it', () => {
    const e = error(() =>
      impersonate(p, agent, {
        user: 'system:serviceaccount:kube-system:default',
        groups: undefined,
      })
    )
    expect(e).toEqual({
      code: 403,
      message:
        'serviceaccounts "default" is forbidden: User "system:serviceaccount:edgeplane-system:edgeplane-agent" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    })
  })

  it('checks users and every group by name, and adds system:authenticated', () => {
    const alice = user('alice')
    expect(impersonate(p, alice, { user: 'bob', groups: ['devs'] })).toEqual({
      name: 'bob',
      groups: ['devs', 'system:authenticated'],
    })
    expect(
      error(() => impersonate(p, alice, { user: 'carol', groups: undefined }))?.message
    ).toContain('cannot impersonate resource "users" in API group "" at the cluster scope')
    expect(
      error(() => impersonate(p, alice, { user: 'bob', groups: ['system:masters'] }))?.code
    ).toBe(403)
    // the agent may not name users, only its tenants' accounts
    expect(error(() => impersonate(p, agent, { user: 'admin', groups: undefined }))?.code).toBe(403)
  })
})

describe('impersonationOf', () => {
  it('reads the user and repeated groups, refuses groups alone and the unsupported headers', () => {
    const h = new Headers()
    h.set('impersonate-user', 'bob')
    h.append('impersonate-group', 'a')
    h.append('impersonate-group', 'b')
    expect(impersonationOf(h)).toEqual({ user: 'bob', groups: ['a', 'b'] })
    expect(impersonationOf(new Headers())).toBeUndefined()
    expect(error(() => impersonationOf(new Headers({ 'impersonate-group': 'a' })))?.code).toBe(400)
    expect(
      error(() =>
        impersonationOf(new Headers({ 'impersonate-user': 'b', 'impersonate-extra-scopes': 'x' }))
      )?.code
    ).toBe(400)
  })
})
