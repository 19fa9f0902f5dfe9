/**
 * The RBAC authorizer over a policy: ClusterRoleBindings reach everywhere, a RoleBinding to a
 * ClusterRole grants only in its own namespace, User, Group and ServiceAccount subjects (with a
 * RoleBinding's namespace standing in for a ServiceAccount subject without one), system:masters,
 * bindings to missing roles, and the rules a user holds.
 */
import { describe, expect, it } from 'vitest'
import { authorize, rulesFor } from '../../../lib/rbac/authorizer.ts'
import type { Attributes } from '../../../lib/rbac/types.ts'
import {
  clusterRole,
  clusterRoleBinding,
  policy,
  role,
  roleBinding,
  user,
} from './policy-fixture.ts'

const pods = (verb: string, namespace?: string): Attributes => ({
  resourceRequest: true,
  verb,
  apiGroup: '',
  resource: 'pods',
  ...(namespace ? { namespace } : {}),
})

const podReader = clusterRole('pod-reader', [
  { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
])

describe('authorize', () => {
  it('grants a ClusterRole bound by a RoleBinding in that namespace only', () => {
    const p = policy([
      podReader,
      roleBinding('team-a', 'read', { kind: 'ClusterRole', name: 'pod-reader' }, [
        { kind: 'User', name: 'alice' },
      ]),
    ])
    const alice = user('alice')
    expect(authorize(p, alice, pods('list', 'team-a')).allowed).toBe(true)
    expect(authorize(p, alice, pods('list', 'team-b')).allowed).toBe(false)
    expect(authorize(p, alice, pods('list')).allowed).toBe(false) // all namespaces
    expect(authorize(p, alice, pods('delete', 'team-a')).allowed).toBe(false)
    expect(authorize(p, user('bob'), pods('list', 'team-a')).allowed).toBe(false)
  })

  it('grants a ClusterRoleBinding in every namespace and at the cluster scope', () => {
    const p = policy([
      podReader,
      clusterRoleBinding('read', 'pod-reader', [{ kind: 'Group', name: 'readers' }]),
    ])
    const carol = user('carol', 'readers')
    expect(authorize(p, carol, pods('list')).allowed).toBe(true)
    expect(authorize(p, carol, pods('get', 'anywhere')).allowed).toBe(true)
    expect(authorize(p, user('dave'), pods('get', 'anywhere')).allowed).toBe(false)
  })

  it('grants a Role only in its namespace, through a binding of that namespace', () => {
    const p = policy([
      role('team-a', 'r', [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }]),
      roleBinding('team-a', 'b', { kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'alice' }]),
      // a binding elsewhere to a Role of the same name that does not exist there grants nothing
      roleBinding('team-b', 'b', { kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'alice' }]),
    ])
    const cm = (ns: string): Attributes => ({
      resourceRequest: true,
      verb: 'create',
      apiGroup: '',
      resource: 'configmaps',
      namespace: ns,
    })
    expect(authorize(p, user('alice'), cm('team-a')).allowed).toBe(true)
    expect(authorize(p, user('alice'), cm('team-b')).allowed).toBe(false)
  })

  it('matches ServiceAccount subjects by their user name, a RoleBinding lending its namespace', () => {
    const p = policy([
      podReader,
      roleBinding('ns1', 'b', { kind: 'ClusterRole', name: 'pod-reader' }, [
        { kind: 'ServiceAccount', name: 'robot' },
      ]),
      clusterRoleBinding('c', 'pod-reader', [
        { kind: 'ServiceAccount', name: 'other', namespace: 'ns2' },
      ]),
    ])
    const robot = user('system:serviceaccount:ns1:robot', 'system:serviceaccounts')
    expect(authorize(p, robot, pods('get', 'ns1')).allowed).toBe(true)
    expect(authorize(p, robot, pods('get', 'ns2')).allowed).toBe(false)
    expect(authorize(p, user('system:serviceaccount:ns2:robot'), pods('get', 'ns1')).allowed).toBe(
      false
    )
    expect(authorize(p, user('system:serviceaccount:ns2:other'), pods('get', 'x')).allowed).toBe(
      true
    )
    // a user merely named like the account's name is not the account
    expect(authorize(p, user('robot'), pods('get', 'ns1')).allowed).toBe(false)
  })

  it('allows system:masters everything and refuses everyone without a binding', () => {
    const p = policy([])
    expect(authorize(p, user('root', 'system:masters'), pods('delete', 'x')).allowed).toBe(true)
    expect(authorize(p, user('alice'), pods('get', 'x'))).toEqual({ allowed: false, reason: '' })
  })

  it('grants nothing through a binding to a ClusterRole that does not exist', () => {
    const p = policy([clusterRoleBinding('b', 'missing', [{ kind: 'User', name: 'alice' }])])
    expect(authorize(p, user('alice'), pods('get', 'x')).allowed).toBe(false)
  })

  it('lists the rules a user holds in a namespace, cluster-wide ones included', () => {
    const p = policy([
      podReader,
      clusterRole('ns-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['namespaces'] }]),
      clusterRoleBinding('c', 'ns-reader', [{ kind: 'User', name: 'alice' }]),
      roleBinding('a', 'b', { kind: 'ClusterRole', name: 'pod-reader' }, [
        { kind: 'User', name: 'alice' },
      ]),
    ])
    expect(rulesFor(p, user('alice'), 'a').map((r) => r.resources)).toEqual([
      ['namespaces'],
      ['pods'],
    ])
    expect(rulesFor(p, user('alice'), '').map((r) => r.resources)).toEqual([['namespaces']])
  })
})
