/**
 * Status reports against a real edge API: a Deployment's status with its ReplicaSets and Pods
 * (made at the edge as its controllers would), sent only when something changed; the
 * observedGeneration is the center generation the edge has observed; a rejected status is held
 * back until it changes or the next heartbeat; the heartbeat goes at most once a minute, with no
 * report at all in between. (Problems: agent-problems.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import type { ObjectRef } from '../../../lib/edge/protocol.ts'
import { agentBench, deployment, namespace, nsRef, ref } from './fixture.ts'

let clock = Date.parse('2030-01-01T00:00:00Z')
const now = () => new Date(clock)
const bench = agentBench('mb-report')

const merge = (manager: string) => ({ contentType: 'application/merge-patch+json', manager })
const depPath = (ns: string, name: string) => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`

/** A Namespace and a Deployment in the mailbox, applied by a new agent. */
async function deployed(ns: string, name: string) {
  const dep = ref('apps/v1', 'deployments', ns, name)
  bench.center.put(nsRef(ns), namespace(ns))
  bench.center.put(dep, deployment(ns, name, 1))
  const agent = await bench.agent({ now })
  expect(await agent.poll()).toMatchObject({ ok: true, created: 2 })
  return { agent, dep }
}

const setStatus = (ns: string, name: string, status: Record<string, unknown>) =>
  bench.edge.call(
    'PATCH',
    `${depPath(ns, name)}/status`,
    { status },
    merge('kube-controller-manager')
  )

/** Creates an object at the edge as a controller would, owned by `owner`. */
async function owned(
  path: string,
  body: Record<string, unknown>,
  owner: ObjectRef & { uid: string; kind: string }
) {
  const metadata = body.metadata as Record<string, unknown>
  const ownerRef = {
    apiVersion: 'apps/v1',
    kind: owner.kind,
    name: owner.name,
    uid: owner.uid,
    controller: true,
  }
  const res = await bench.edge.call(
    'POST',
    path,
    { ...body, metadata: { ...metadata, ownerReferences: [ownerRef] } },
    { manager: 'kube-controller-manager' }
  )
  expect(res.status).toBe(201)
  return res.body as { metadata: { uid: string } }
}

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
}

describe('status reports', () => {
  it('reports status and associated objects only when they change', async () => {
    const { agent, dep } = await deployed('r1', 'web')
    expect(bench.center.reports.at(-1)?.heartbeat).toBe(true)
    const live = await bench.edge.get(dep)
    const rs = await owned(
      '/apis/apps/v1/namespaces/r1/replicasets',
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web-abc', namespace: 'r1' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template },
      },
      { ...dep, kind: 'Deployment', uid: live?.metadata.uid ?? '' }
    )
    await owned(
      '/api/v1/namespaces/r1/pods',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web-abc-x1', namespace: 'r1' },
        spec: template.spec,
      },
      { ...dep, name: 'web-abc', kind: 'ReplicaSet', uid: rs.metadata.uid }
    )
    const podStatus = '/api/v1/namespaces/r1/pods/web-abc-x1/status'
    await bench.edge.call('PATCH', podStatus, { status: { phase: 'Pending' } }, merge('kubelet'))
    const gen = live?.metadata.generation ?? 0
    await setStatus('r1', 'web', { observedGeneration: gen, replicas: 1 })
    let n = bench.center.reports.length
    await agent.poll()
    expect(bench.center.reports.slice(n).flatMap((r) => r.statuses)).toEqual([
      {
        ...dep,
        observedGeneration: 1,
        status: { observedGeneration: gen, replicas: 1 },
        associated: [
          { kind: 'Pod', namespace: 'r1', name: 'web-abc-x1', phase: 'Pending', ready: false },
          { kind: 'ReplicaSet', namespace: 'r1', name: 'web-abc', ready: false },
        ],
      },
    ])
    // Nothing changed and no heartbeat due: no report at all.
    n = bench.center.reports.length
    await agent.poll()
    expect(bench.center.reports.length).toBe(n)
    // The pod becomes ready: the Deployment's report goes again.
    const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
    await bench.edge.call('PATCH', podStatus, { status: ready }, merge('kubelet'))
    await agent.poll()
    expect(bench.center.reports.length).toBe(n + 1)
    const again = bench.center.reports[n]
    expect(again?.statuses.map((s) => s.name)).toEqual(['web'])
    expect(again?.statuses[0]?.associated?.[0]).toMatchObject({ phase: 'Running', ready: true })
    expect(again?.heartbeat).toBe(false)
  })

  it('claims the center generation the edge has observed', async () => {
    const { agent, dep } = await deployed('r2', 'api')
    const claimed = () => bench.center.reports.at(-1)?.statuses.find((s) => s.name === 'api')
    const g1 = (await bench.edge.get(dep))?.metadata.generation ?? 0
    await setStatus('r2', 'api', { observedGeneration: g1 })
    await agent.poll()
    expect(claimed()?.observedGeneration).toBe(1)
    // Generation 2 in the center, applied at the edge but not yet observed there.
    bench.center.put(dep, deployment('r2', 'api', 2))
    expect(await agent.poll()).toMatchObject({ updated: 1 })
    const g2 = (await bench.edge.get(dep))?.metadata.generation ?? 0
    expect(g2).toBeGreaterThan(g1)
    await setStatus('r2', 'api', { observedGeneration: g1, replicas: 1 })
    await agent.poll()
    expect(claimed()).toMatchObject({ observedGeneration: 1, status: { replicas: 1 } })
    await setStatus('r2', 'api', { observedGeneration: g2, replicas: 2 })
    await agent.poll()
    expect(claimed()).toMatchObject({ observedGeneration: 2, status: { replicas: 2 } })
  })

  it('holds a rejected status back until it changes or the heartbeat; a heartbeat a minute', async () => {
    const { agent } = await deployed('r3', 'job')
    await setStatus('r3', 'job', { replicas: 3 })
    bench.center.rejectNext.push([
      {
        ref: { group: 'apps', resource: 'deployments', namespace: 'r3', name: 'job' },
        message: 'later',
      },
    ])
    let n = bench.center.reports.length
    await agent.poll()
    await agent.poll()
    const sent = () => bench.center.reports.slice(n).map((r) => r.statuses.map((s) => s.name))
    expect(sent()).toEqual([['job']])
    // It changes: sent at once (and taken).
    await setStatus('r3', 'job', { replicas: 4 })
    n = bench.center.reports.length
    await agent.poll()
    await agent.poll()
    expect(sent()).toEqual([['job']])
    // Rejected again; it goes again with the heartbeat, which is a minute after the last one.
    await setStatus('r3', 'job', { replicas: 5 })
    bench.center.rejectNext.push([{ ref: { name: 'job' }, message: 'later' }])
    await agent.poll()
    n = bench.center.reports.length
    await agent.poll()
    expect(bench.center.reports.length).toBe(n)
    clock += 61_000
    await agent.poll()
    expect(bench.center.reports.slice(n)).toEqual([
      expect.objectContaining({
        heartbeat: true,
        statuses: [expect.objectContaining({ name: 'job' })],
      }),
    ])
    n = bench.center.reports.length
    clock += 61_000
    await agent.poll()
    expect(bench.center.reports.slice(n)).toEqual([
      expect.objectContaining({ heartbeat: true, statuses: [], problems: [] }),
    ])
  })
})
