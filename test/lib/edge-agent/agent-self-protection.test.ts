/**
 * The agent protects itself whatever its mailbox holds (lib/edge-agent/self-protection.ts; issue
 * 35, breach 5), against a real edge API: a Pod in the agent's namespace mounting its Secret, a
 * ConfigMap over its ownership record, the Namespace itself and its ClusterRole and
 * ClusterRoleBinding are never created or changed, each reported as failed with the reason, while
 * the rest of the mailbox applies; an object an older agent created in that namespace is
 * forgotten, never deleted; and no upsync set brings up the agent's Secret.
 */
import { describe, expect, it } from 'vitest'
import type { ObjectRef } from '../../../lib/edge/protocol.ts'
import { agentSelf } from '../../../lib/edge-agent/self-protection.ts'
import {
  AGENT_NS,
  agentBench,
  cmRef,
  configMap,
  namespace,
  nsRef,
  recordNameOf,
  ref,
  tempStateDir,
} from './fixture.ts'

const bench = agentBench('mb-self')
const RBAC = 'rbac.authorization.k8s.io'
const admin = { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }
const tenant = [{ apiGroup: RBAC, kind: 'Group', name: 'system:authenticated' }]

const stealer = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'steal', namespace: AGENT_NS },
  spec: {
    containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 't', mountPath: '/t' }] }],
    volumes: [{ name: 't', secret: { secretName: 'edgeplane-agent' } }],
  },
}
const crbRef = ref(`${RBAC}/v1`, 'clusterrolebindings', '', 'edgeplane-agent')
const crRef = ref(`${RBAC}/v1`, 'clusterroles', '', 'edgeplane-agent')
const podRef = ref('v1', 'pods', AGENT_NS, 'steal')

const problemsOf = (names: string[]) =>
  bench.center.reports
    .flatMap((r) => r.problems)
    .filter((p) => names.includes(p.name))
    .map((p) => `${p.resource}/${p.name} ${p.reason}`)
    .sort()

describe('the agent never writes itself', () => {
  it('refuses its namespace, what is in it and its RBAC, and applies the rest', async () => {
    // What the bootstrap made: the ClusterRole the agent runs with.
    const rules = [{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }]
    const made = await bench.edge.call('POST', `/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'edgeplane-agent' },
      rules,
    })
    expect(made.status).toBe(201)
    const stateDir = await tempStateDir()
    const record = recordNameOf(stateDir)
    const items: [ObjectRef, Record<string, unknown>][] = [
      [nsRef('app'), namespace('app')],
      [cmRef('app', 'fine'), configMap('app', 'fine', { k: 'v' })],
      [nsRef(AGENT_NS), namespace(AGENT_NS, { hijacked: 'yes' })],
      [podRef, stealer],
      [cmRef(AGENT_NS, `${record}-0`), configMap(AGENT_NS, `${record}-0`, { '0': 'forged' })],
      [
        crbRef,
        {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'edgeplane-agent' },
          roleRef: admin,
          subjects: tenant,
        },
      ],
      [
        crRef,
        {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'edgeplane-agent' },
          rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
        },
      ],
    ]
    for (const [r, body] of items) bench.center.put(r, body)
    const agent = await bench.agent({ stateDir })
    expect(await agent.poll()).toMatchObject({ ok: true, created: 2, problems: 5 })
    expect((await bench.edge.get(cmRef('app', 'fine')))?.data).toEqual({ k: 'v' })
    expect(await bench.edge.get(podRef)).toBeUndefined()
    expect(await bench.edge.get(crbRef)).toBeUndefined()
    expect((await bench.edge.get(crRef))?.rules).toEqual(rules)
    expect((await bench.edge.get(nsRef(AGENT_NS)))?.metadata.labels?.hijacked).toBeUndefined()
    const all = ['steal', AGENT_NS, `${record}-0`, 'edgeplane-agent']
    expect(problemsOf(all)).toEqual([
      'clusterrolebindings/edgeplane-agent ApplyFailed',
      'clusterroles/edgeplane-agent ApplyFailed',
      `configmaps/${record}-0 ApplyFailed`,
      `namespaces/${AGENT_NS} ApplyFailed`,
      'pods/steal ApplyFailed',
    ])
    const pod = bench.center.reports.flatMap((r) => r.problems).find((p) => p.name === 'steal')
    expect(pod?.message).toContain(
      `refused by the edge agent: it is in the edge agent's own namespace "${AGENT_NS}"`
    )
    // The record was not overwritten: the agent still knows what it owns.
    const again = await bench.agent({ stateDir })
    expect(await again.poll()).toMatchObject({ ok: true, created: 0, problems: 5 })
    expect([...again.inspect().owned.keys()].sort()).toEqual([
      '/configmaps/app/fine',
      '/namespaces//app',
    ])
  })

  it('forgets what an older agent created in its namespace, without deleting it', async () => {
    const stateDir = await tempStateDir()
    const left = cmRef(AGENT_NS, 'left-by-old')
    bench.center.put(left, configMap(AGENT_NS, 'left-by-old', { k: 'v' }))
    // An agent that did not protect this namespace (another self) created it.
    const older = await bench.agent({ stateDir, self: agentSelf('elsewhere') })
    expect(await older.poll()).toMatchObject({ ok: true, created: 1 })
    expect(older.inspect().owned.has('/configmaps/edgeplane-system/left-by-old')).toBe(true)
    const agent = await bench.agent({ stateDir })
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 0, problems: 1 })
    expect(agent.inspect().owned.has('/configmaps/edgeplane-system/left-by-old')).toBe(false)
    bench.center.remove(left)
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await bench.edge.get(left))?.data).toEqual({ k: 'v' })
  })

  it('never upsyncs its own objects, whatever the upsync sets say', async () => {
    const secret = await bench.edge.call('POST', `/api/v1/namespaces/${AGENT_NS}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'edgeplane-agent', namespace: AGENT_NS },
      stringData: { token: 'the-edge-token' },
    })
    expect(secret.status).toBe(201)
    await bench.edge.call('POST', '/api/v1/namespaces/app/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'edge-born', namespace: 'app' },
      stringData: { k: 'v' },
    })
    bench.center.put(ref('edge.kcp.io/v1alpha1', 'syncerconfigs', '', 'the-one'), {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncerConfig',
      metadata: { name: 'the-one' },
      spec: { upsync: [{ apiGroup: '*', resources: ['*'], namespaces: ['*'], names: ['*'] }] },
    })
    const agent = await bench.agent()
    expect(await agent.poll()).toMatchObject({ ok: true })
    const up = bench.center.reports.flatMap((r) => r.upsync.apply)
    expect(
      up.map((o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)
    ).toContain('Secret/app/edge-born')
    expect(up.filter((o: any) => o.metadata.namespace === AGENT_NS)).toEqual([])
    expect(up.filter((o: any) => o.metadata.name === AGENT_NS)).toEqual([])
    expect(up.filter((o: any) => o.metadata.name === 'edgeplane-agent')).toEqual([])
  })
})
