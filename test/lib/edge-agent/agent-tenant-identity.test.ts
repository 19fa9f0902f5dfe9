/**
 * The agent applies each tenant's entries as that tenant's identity and the edge's own RBAC
 * decides (issue 35, "The edge cluster's own RBAC decides"), against an edge that enforces RBAC
 * and impersonation as kube-apiserver does, with the agent running as its ServiceAccount: a
 * tenant's Namespace and what it places there apply; a ClusterRoleBinding to cluster-admin is
 * refused by the edge's escalation check; a Pod in edgeplane-system is refused by the edge even
 * with the agent's own self-protection pointed elsewhere; a tenant's objects in another tenant's
 * namespace are refused; each refusal is reported to the center as ApplyFailed with the edge's
 * 403 message. Entries without tenants (an older center) are applied as the agent.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { agentSelf } from '../../../lib/edge-agent/self-protection.ts'
import { type FakeCenter, startFakeCenter } from './fake-center.ts'
import {
  AGENT_NS,
  cmRef,
  configMap,
  type Edge,
  namespace,
  newAgent,
  nsRef,
  ref,
} from './fixture.ts'
import { startRbacEdge } from './rbac-edge.ts'

const A = 'spacea0000000000'
const B = 'spaceb0000000000'
const RBAC = 'rbac.authorization.k8s.io'
const crbRef = ref(`${RBAC}/v1`, 'clusterrolebindings', '', 'take-over')
const podRef = ref('v1', 'pods', AGENT_NS, 'steal')
const stealer = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'steal', namespace: AGENT_NS },
  spec: {
    containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 't', mountPath: '/t' }] }],
    volumes: [{ name: 't', secret: { secretName: 'edgeplane-agent' } }],
  },
}
const takeOver = {
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'take-over' },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
  subjects: [{ apiGroup: RBAC, kind: 'Group', name: 'system:authenticated' }],
}

let edge: Edge
let center: FakeCenter
beforeAll(async () => {
  edge = await startRbacEdge()
})
afterAll(() => edge?.close())
beforeEach(async () => {
  center = await startFakeCenter('mb-tenants')
})
afterEach(() => center?.close())

const problems = () =>
  new Map(center.reports.flatMap((r) => r.problems).map((p) => [`${p.resource}/${p.name}`, p]))

describe('the edge RBAC decides what a tenant may do', () => {
  it('applies a tenant in its namespace and refuses its escalation and another tenant’s namespace', async () => {
    center.put(nsRef('team-a'), namespace('team-a'), [A])
    center.put(cmRef('team-a', 'cfg'), configMap('team-a', 'cfg', { k: 'a' }), [A])
    center.put(nsRef('team-b'), namespace('team-b'), [B])
    center.put(cmRef('team-b', 'cfg'), configMap('team-b', 'cfg', { k: 'b' }), [B])
    center.put(cmRef('team-b', 'planted'), configMap('team-b', 'planted', { k: 'a' }), [A])
    center.put(crbRef, takeOver, [A])
    const agent = await newAgent(center, edge)
    const r = await agent.poll()
    expect(r.outcome).toBe('applied')
    expect((await edge.get(cmRef('team-a', 'cfg')))?.data).toEqual({ k: 'a' })
    expect((await edge.get(cmRef('team-b', 'cfg')))?.data).toEqual({ k: 'b' })
    expect(await edge.get(cmRef('team-b', 'planted'))).toBeUndefined()
    expect(await edge.get(crbRef)).toBeUndefined()

    const found = problems()
    expect(found.get('clusterrolebindings/take-over')).toMatchObject({ reason: 'ApplyFailed' })
    expect(found.get('clusterrolebindings/take-over')?.message).toContain(
      `user "system:serviceaccount:edgeplane-tenants:t-${A}"`
    )
    expect(found.get('clusterrolebindings/take-over')?.message).toContain(
      'is attempting to grant RBAC permissions not currently held'
    )
    expect(found.get('configmaps/planted')?.message).toContain(
      `User "system:serviceaccount:edgeplane-tenants:t-${A}" cannot patch resource "configmaps" in API group "" in the namespace "team-b"`
    )
    expect(found.has('configmaps/cfg')).toBe(false)
    // the identities the agent keeps
    const sa = await edge.get(ref('v1', 'serviceaccounts', 'edgeplane-tenants', `t-${A}`))
    expect(sa?.metadata.name).toBe(`t-${A}`)
  })

  it('refuses a Pod in the agent namespace at the edge itself, even past a misconfigured agent', async () => {
    center.put(podRef, stealer, [A])
    // Self-protection pointed at another namespace: only the edge's RBAC stands in the way.
    const agent = await newAgent(center, edge, { self: agentSelf('not-the-agent-namespace') })
    await agent.poll()
    expect(await edge.get(podRef)).toBeUndefined()
    expect(problems().get('pods/steal')).toMatchObject({
      reason: 'ApplyFailed',
      message: expect.stringContaining(
        `cannot patch resource "pods" in API group "" in the namespace "${AGENT_NS}"`
      ),
    })
  })

  it('applies an entry without tenants as the agent itself (an older center)', async () => {
    center.put(nsRef('legacy'), namespace('legacy'))
    center.put(cmRef('legacy', 'cfg'), configMap('legacy', 'cfg', { k: 'v' }))
    const agent = await newAgent(center, edge)
    expect((await agent.poll()).outcome).toBe('applied')
    expect((await edge.get(cmRef('legacy', 'cfg')))?.data).toEqual({ k: 'v' })
    expect(problems().size).toBe(0)
  })
})
