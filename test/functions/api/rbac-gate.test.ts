/**
 * A hub in edge-cluster mode (a simulated edge's app) authorizing by RBAC through `app.request()`:
 * the admin token is system:masters; a service account without bindings is refused with kube's
 * 403 but reads discovery; bindings written through the API take effect on the next request;
 * impersonation is checked and the request runs as the impersonated account; escalation
 * prevention refuses a binding to cluster-admin from an account that may write bindings; the self
 * reviews answer from the same authorizer (with impersonation, as `kubectl auth can-i --as`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { registerToken } from '../../../lib/auth/tokens.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const ADMIN = 'edge-admin'
const AGENT = 'agent-token'
const AGENT_USER = 'system:serviceaccount:edgeplane-system:edgeplane-agent'
const TENANT_USER = 'system:serviceaccount:edgeplane-tenants:t-a'
const RBAC = '/apis/rbac.authorization.k8s.io/v1'

type Res = { status: number; body: any }
type Call = (
  method: string,
  path: string,
  body?: unknown,
  opts?: { token?: string; as?: string; type?: string }
) => Promise<Res>

let store: TestStore
let call: Call
beforeAll(async () => {
  store = await createTestStore()
  const edge = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    log: silentLogger,
    defaults: true,
    site: 'simulated-edge',
    authorization: 'rbac',
  })
  await bootstrapEdge(edge.deps, { node: edgeNode('rbac'), adminToken: ADMIN })
  await registerToken(store.kv, AGENT, {
    name: AGENT_USER,
    kind: 'user',
    spaces: ['root'],
    groups: ['system:serviceaccounts', 'system:serviceaccounts:edgeplane-system'],
  })
  call = async (method, path, body, opts = {}) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${opts.token ?? ADMIN}`,
      'content-type': opts.type ?? 'application/json',
    }
    if (opts.as) headers['impersonate-user'] = opts.as
    const res = await edge.app.request(`https://edge.test${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: await res.json() }
  }
})
afterAll(() => store?.close())

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
const clusterRole = (name: string, rules: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules,
})
const crb = (name: string, role: string, subject: Record<string, string>) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [subject],
})
const agentSubject = {
  kind: 'ServiceAccount',
  name: 'edgeplane-agent',
  namespace: 'edgeplane-system',
}
const tenantSubject = { kind: 'ServiceAccount', name: 't-a', namespace: 'edgeplane-tenants' }

describe('RBAC on a simulated edge', () => {
  it('refuses an unbound account with kube 403 but lets it read discovery', async () => {
    const denied = await call('GET', '/api/v1/namespaces/default/pods', undefined, { token: AGENT })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: `pods is forbidden: User "${AGENT_USER}" cannot list resource "pods" in API group "" in the namespace "default"`,
      details: { kind: 'pods' },
    })
    expect((await call('GET', '/api', undefined, { token: AGENT })).status).toBe(200)
    expect((await call('GET', '/apis/apps/v1', undefined, { token: AGENT })).status).toBe(200)
    // the admin token is system:masters
    expect((await call('GET', '/api/v1/namespaces/default/pods')).status).toBe(200)
  })

  it('applies a binding written through the API on the very next request', async () => {
    expect(
      (
        await call(
          'POST',
          `${RBAC}/clusterroles`,
          clusterRole('pods-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }])
        )
      ).status
    ).toBe(201)
    expect(
      (
        await call(
          'POST',
          `${RBAC}/clusterrolebindings`,
          crb('agent-pods', 'pods-reader', agentSubject)
        )
      ).status
    ).toBe(201)
    const allowed = await call('GET', '/api/v1/namespaces/default/pods', undefined, {
      token: AGENT,
    })
    expect(allowed.status).toBe(200)
    expect((await call('DELETE', `${RBAC}/clusterrolebindings/agent-pods`)).status).toBe(200)
    const again = await call('GET', '/api/v1/namespaces/default/pods', undefined, { token: AGENT })
    expect(again.status).toBe(403)
  })

  it('impersonates only what RBAC allows, and runs the request as the impersonated account', async () => {
    const asTenant = { token: AGENT, as: TENANT_USER }
    const refused = await call('GET', '/api/v1/namespaces', undefined, asTenant)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(
      `serviceaccounts "t-a" is forbidden: User "${AGENT_USER}" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "edgeplane-tenants"`
    )
    await call('POST', '/api/v1/namespaces', ns('edgeplane-tenants'))
    await call('POST', `${RBAC}/namespaces/edgeplane-tenants/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'impersonate', namespace: 'edgeplane-tenants' },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }],
    })
    await call('POST', `${RBAC}/namespaces/edgeplane-tenants/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'impersonate', namespace: 'edgeplane-tenants' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'impersonate' },
      subjects: [agentSubject],
    })
    const asAccount = await call('GET', '/api/v1/namespaces', undefined, asTenant)
    expect(asAccount.status).toBe(403)
    expect(asAccount.body.message).toBe(
      `namespaces is forbidden: User "${TENANT_USER}" cannot list resource "namespaces" in API group "" at the cluster scope`
    )
    // the agent may impersonate its tenants' accounts, not users (an admin, say)
    const user = await call('GET', '/api/v1/namespaces', undefined, { token: AGENT, as: 'admin' })
    expect(user.status).toBe(403)
  })

  it('refuses a tenant that may write bindings a binding to cluster-admin (escalation)', async () => {
    await call(
      'POST',
      `${RBAC}/clusterroles`,
      clusterRole('binder', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterrolebindings', 'clusterroles'],
          verbs: ['create', 'patch', 'get'],
        },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      ])
    )
    await call(
      'POST',
      `${RBAC}/clusterroles`,
      clusterRole('cm-get', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }])
    )
    await call('POST', `${RBAC}/clusterrolebindings`, crb('tenant-binder', 'binder', tenantSubject))
    const asTenant = { token: AGENT, as: TENANT_USER }
    const takeOver = crb('take-over', 'cluster-admin', { kind: 'User', name: 'mallory' })
    const refused = await call('POST', `${RBAC}/clusterrolebindings`, takeOver, asTenant)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toContain(
      `clusterrolebindings.rbac.authorization.k8s.io "take-over" is forbidden: user "${TENANT_USER}"`
    )
    expect(refused.body.message).toContain('not currently held')
    expect((await call('GET', `${RBAC}/clusterrolebindings/take-over`)).status).toBe(404)
    const ok = await call(
      'POST',
      `${RBAC}/clusterrolebindings`,
      crb('fine', 'cm-get', { kind: 'User', name: 'x' }),
      asTenant
    )
    expect(ok.status).toBe(201)
    // a patch is judged on the object it would store
    const mine = clusterRole('mine', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    ])
    expect((await call('POST', `${RBAC}/clusterroles`, mine, asTenant)).status).toBe(201)
    const widen = { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }
    const patched = await call('PATCH', `${RBAC}/clusterroles/mine`, widen, {
      ...asTenant,
      type: 'application/merge-patch+json',
    })
    expect(patched.status).toBe(403)
    expect(patched.body.message).toContain(
      'clusterroles.rbac.authorization.k8s.io "mine" is forbidden'
    )
    const stored = await call('GET', `${RBAC}/clusterroles/mine`)
    expect(stored.body.rules).toEqual(mine.rules)
  })

  it('answers the self reviews from the same authorizer, impersonation included', async () => {
    const review = (attrs: Record<string, string>) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: attrs },
    })
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'
    const asTenant = { token: AGENT, as: TENANT_USER }
    const yes = await call(
      'POST',
      path,
      review({ verb: 'get', resource: 'configmaps', namespace: 'x' }),
      asTenant
    )
    expect(yes.body.status.allowed).toBe(true)
    const no = await call(
      'POST',
      path,
      review({ verb: 'create', resource: 'pods', namespace: 'x' }),
      asTenant
    )
    expect(no.body.status.allowed).toBe(false)
    const who = await call(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
      },
      asTenant
    )
    expect(who.body.status.userInfo).toEqual({
      username: TENANT_USER,
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:edgeplane-tenants',
        'system:authenticated',
      ],
    })
  })

  it('issues a ServiceAccount token (TokenRequest) that authenticates as the account', async () => {
    await call('POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'robot' },
    })
    const path = '/api/v1/namespaces/default/serviceaccounts/robot/token'
    const issued = await call('POST', path, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 600 },
    })
    expect(issued.status).toBe(201)
    expect(issued.body).toMatchObject({ kind: 'TokenRequest', spec: { expirationSeconds: 600 } })
    const who = await call(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      { token: issued.body.status.token }
    )
    expect(who.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    })
    const missing = await call(
      'POST',
      '/api/v1/namespaces/default/serviceaccounts/nobody/token',
      {}
    )
    expect(missing.status).toBe(404)
    // only who may create serviceaccounts/token gets one
    const refused = await call('POST', path, {}, { token: AGENT })
    expect(refused.status).toBe(403)
  })
})
