/**
 * The edge cluster's own RBAC decides (issue 35), end to end through `npm start` (one simulated
 * edge, florin, env=prod) and real kubectl. The simulated edge enforces RBAC and impersonation as
 * kube-apiserver does and its agent runs as its ServiceAccount; each tenant's objects are applied
 * as that tenant's identity. Under per-team grants: team-a, granted ClusterRoleBindings and Roles,
 * places a ClusterRoleBinding to cluster-admin — the center sends it, the edge's escalation check
 * refuses it, and the copy says ApplyFailed with the edge's message; team-a's Role in team-b's
 * namespace is refused by the edge too; team-b, granted nothing privileged, cannot send even a
 * Role in its own namespace (the center keeps it). What each team may place lands, and `kubectl
 * auth can-i --as` against the edge answers from the same authorizer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
const WAIT = 90_000
const RBAC = 'rbac.authorization.k8s.io'

const grants = `apiVersion: tenancy.edgeplane.io/v1alpha1
kind: PlacementGrant
metadata: {name: team-a}
spec:
  workloadSpaces: ["root:team-a"]
  locations: [{inventory: "root:imw-1"}]
  resources: [{group: ${RBAC}, resource: clusterrolebindings}, {group: ${RBAC}, resource: roles}]
---
apiVersion: tenancy.edgeplane.io/v1alpha1
kind: PlacementGrant
metadata: {name: team-b}
spec:
  workloadSpaces: ["root:team-b"]
  locations: [{inventory: "root:imw-1"}]
`
const placement = (app: string, cluster = '') => `apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: ${app}}
spec:
  locationSelectors: [{matchLabels: {env: prod}}]
  namespaceSelector: {matchLabels: {app: ${app}}}
${cluster}`
const ns = (name: string, app: string) => `apiVersion: v1
kind: Namespace
metadata: {name: ${name}, labels: {app: ${app}}}
`
const cm = (namespace: string, name: string) => `apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}, namespace: ${namespace}}
data: {from: ${namespace}}
`
const role = (namespace: string, name: string) => `apiVersion: ${RBAC}/v1
kind: Role
metadata: {name: ${name}, namespace: ${namespace}}
rules: [{apiGroups: [""], resources: [secrets], verbs: [get, list]}]
`
const takeOver = `apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata: {name: take-over}
roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: cluster-admin}
subjects: [{apiGroup: ${RBAC}, kind: Group, name: "system:authenticated"}]
`
const docs = (...d: string[]) => d.join('---\n')

const problemOf = (o: KubeObject | undefined) =>
  o?.metadata.annotations?.['edge.kcp.io/sync-problem']
const atFlorin = (kind: string, namespace: string, name: string) =>
  edges.get(['--context', 'florin'], kind, namespace, name)
const copy = async (kind: string, namespace: string, name: string) =>
  edges.get(await edges.mailbox('florin'), kind, namespace, name)

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod' })
  edges = edgeStack(stack)
  for (const team of ['team-a', 'team-b'])
    ok(await stack.kubectl(['create', '-f', '-'], { input: workspace(team) }))
  ok(await stack.kubectl(['delete', 'placementgrant', 'local']))
  ok(await stack.kubectl(['apply', '-f', '-'], { input: grants }))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

describe("the edge's own RBAC decides what a tenant's objects may do", () => {
  it("lands each team's plain objects, and keeps team-b's Role at the center", async () => {
    const b = docs(ns('b-ns', 'b'), cm('b-ns', 'cfg'), role('b-ns', 'reader'), placement('b'))
    ok(await stack.kubectl([...edges.at('team-b'), 'apply', '-f', '-'], { input: b }))
    await eventually(async () => {
      expect((await atFlorin('configmap', 'b-ns', 'cfg'))?.data).toEqual({ from: 'b-ns' })
    }, WAIT)
    expect(await copy('role', 'b-ns', 'reader')).toBeUndefined()
    expect(await atFlorin('role', 'b-ns', 'reader')).toBeUndefined()
  })

  it('refuses at the edge a ClusterRoleBinding to cluster-admin and a Role in another namespace', async () => {
    const cluster = `  nonNamespacedObjects: [{apiGroup: ${RBAC}, resources: [clusterrolebindings], resourceNames: ["*"]}]\n`
    const a = docs(
      ns('a-ns', 'a'),
      cm('a-ns', 'cfg'),
      ns('b-ns', 'a'),
      role('b-ns', 'sneak'),
      takeOver,
      placement('a', cluster)
    )
    ok(await stack.kubectl([...edges.at('team-a'), 'apply', '-f', '-'], { input: a }))
    await eventually(async () => {
      expect((await atFlorin('configmap', 'a-ns', 'cfg'))?.data).toEqual({ from: 'a-ns' })
      expect(problemOf(await copy('clusterrolebinding', '', 'take-over'))).toMatch(
        /^ApplyFailed: .*is attempting to grant RBAC permissions not currently held/
      )
      expect(problemOf(await copy('role', 'b-ns', 'sneak'))).toMatch(
        /^ApplyFailed: .*cannot patch resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "b-ns"/
      )
    }, WAIT)
    expect(await atFlorin('clusterrolebinding', '', 'take-over')).toBeUndefined()
    expect(await atFlorin('role', 'b-ns', 'sneak')).toBeUndefined()
    expect((await atFlorin('configmap', 'b-ns', 'cfg'))?.data).toEqual({ from: 'b-ns' })
  })

  it('answers kubectl auth can-i --as at the edge from the same authorizer', async () => {
    const tenant = 'system:serviceaccount:edgeplane-tenants:t-nobody'
    const canI = (...args: string[]) =>
      stack.kubectl(['--context', 'florin', 'auth', 'can-i', ...args, '--as', tenant])
    const refused = await canI('create', 'pods', '-n', 'edgeplane-system')
    expect(refused.stdout.trim()).toBe('no')
    const agent = 'system:serviceaccount:edgeplane-system:edgeplane-agent'
    const imp = await stack.kubectl([
      ...['--context', 'florin', 'auth', 'can-i', 'impersonate', 'serviceaccounts'],
      ...['-n', 'edgeplane-tenants', '--as', agent],
    ])
    expect(imp.stdout.trim()).toBe('yes')
    const elsewhere = await stack.kubectl([
      ...['--context', 'florin', 'auth', 'can-i', 'impersonate', 'serviceaccounts'],
      ...['-n', 'kube-system', '--as', agent],
    ])
    expect(elsewhere.stdout.trim()).toBe('no')
  })
})
