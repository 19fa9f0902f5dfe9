/**
 * The workload simulator pass by pass (driven with `tick()` on a fixture edge): Deployments get a
 * ReplicaSet and Running pods with kube's statuses and conditions, scale up and down, roll to a new
 * ReplicaSet on a template change and keep revisionHistoryLimit old ones; deletes cascade; orphans
 * go; Jobs complete; StatefulSets and DaemonSets get their pods and statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createSimFixture, deployment, GVR, NODE, type SimFixture } from './sim-fixture.ts'

let f: SimFixture
beforeAll(async () => {
  f = await createSimFixture()
})
afterAll(() => f?.close())

type Any = KubeObject & Record<string, any>
const owned = (objs: KubeObject[], owner: Any): Any[] =>
  objs.filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid))
const condition = (obj: Any, type: string) =>
  (obj.status?.conditions ?? []).find((c: { type: string }) => c.type === type)

async function scale(name: string, replicas: number): Promise<void> {
  const d = (await f.get(GVR.deployments, name)) as Any
  await f.user.update('root', GVR.deployments, { ...d, spec: { ...d.spec, replicas } })
}

describe('Deployments', () => {
  it('a Deployment without replicas gets one ReplicaSet and one Running, Ready pod', async () => {
    await f.user.create('root', GVR.deployments, deployment('web'))
    await f.run()
    const d = (await f.get(GVR.deployments, 'web')) as Any
    expect(d.spec.replicas).toBe(1)
    const [rs, ...moreRs] = owned(await f.list(GVR.replicasets, 'default'), d) as Any[]
    expect(moreRs).toEqual([])
    const hash = rs?.metadata.labels?.['pod-template-hash']
    expect(rs?.metadata.name).toBe(`web-${hash}`)
    expect(rs?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Deployment', name: 'web', controller: true }),
    ])
    expect(rs?.spec.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash })
    expect(rs?.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1')
    expect(rs?.status).toMatchObject({
      replicas: 1,
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 1,
    })
    const pods = owned(await f.list(GVR.pods, 'default'), rs as KubeObject) as Any[]
    expect(pods).toHaveLength(1)
    const pod = pods[0] as Any
    expect(pod.metadata.name).toMatch(new RegExp(`^web-${hash}-[a-z0-9]{5}$`))
    expect(pod.spec.nodeName).toBe(NODE.name)
    expect(pod.status).toMatchObject({
      phase: 'Running',
      hostIP: NODE.ip,
      podIP: expect.stringMatching(/^10\.244\./),
      startTime: expect.any(String),
      containerStatuses: [expect.objectContaining({ name: 'main', ready: true, started: true })],
    })
    for (const type of ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'])
      expect(condition(pod, type)?.status).toBe('True')
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1')
    expect(d.status).toMatchObject({
      observedGeneration: d.metadata.generation,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    })
    expect(condition(d, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    })
    expect(condition(d, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "web-${hash}" has successfully progressed.`,
    })
    expect((await f.sim.tick()).writes).toBe(0)
  })

  it('scales 1 → 3 → 0, deleting pods on the way down, with observedGeneration following', async () => {
    await scale('web', 3)
    await f.run()
    let d = (await f.get(GVR.deployments, 'web')) as Any
    expect(d.status).toMatchObject({
      observedGeneration: d.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    })
    expect(await f.list(GVR.pods, 'default')).toHaveLength(3)
    await scale('web', 0)
    await f.run()
    d = (await f.get(GVR.deployments, 'web')) as Any
    expect(await f.list(GVR.pods, 'default')).toHaveLength(0)
    expect(d.status.observedGeneration).toBe(d.metadata.generation)
    expect(d.status.replicas).toBeUndefined()
    expect(condition(d, 'Available')?.status).toBe('True')
    await scale('web', 1)
    await f.run()
  })

  it('scales 2 → 3 by adding one pod and keeping the two it has (no churn)', async () => {
    await f.user.create('root', GVR.deployments, deployment('grow', { replicas: 2 }))
    await f.run()
    const podNames = async () =>
      (await f.list(GVR.pods, 'default'))
        .filter((p) => p.metadata.name?.startsWith('grow-'))
        .map((p) => p.metadata.name)
    const before = await podNames()
    expect(before).toHaveLength(2)
    await scale('grow', 3)
    await f.run()
    const after = await podNames()
    expect(after).toHaveLength(3)
    expect(after).toEqual(expect.arrayContaining(before))
    expect((await f.sim.tick()).writes).toBe(0)
    await f.user.delete('root', GVR.deployments, 'grow', { namespace: 'default' })
    await f.run()
  })

  it('a template change (rollout restart) rolls to a new ReplicaSet and retires the old', async () => {
    const before = (await f.get(GVR.deployments, 'web')) as Any
    const template = before.spec.template
    const annotations = { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' }
    await f.user.update('root', GVR.deployments, {
      ...before,
      spec: {
        ...before.spec,
        template: { ...template, metadata: { ...template.metadata, annotations } },
      },
    })
    await f.run()
    const d = (await f.get(GVR.deployments, 'web')) as Any
    const sets = owned(await f.list(GVR.replicasets, 'default'), d) as Any[]
    expect(sets).toHaveLength(2)
    const revision = (rs: Any) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']
    const fresh = sets.find((rs) => revision(rs) === '2') as Any
    const old = sets.find((rs) => revision(rs) === '1') as Any
    expect(fresh.spec.replicas).toBe(1)
    expect(old.spec.replicas).toBe(0)
    expect(old.status.replicas).toBe(0)
    const pods = (await f.list(GVR.pods, 'default')) as Any[]
    expect(pods.map((p) => p.metadata.ownerReferences?.[0]?.name)).toEqual([fresh.metadata.name])
    expect(pods[0]?.metadata.annotations).toMatchObject(annotations)
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2')
    expect(d.status).toMatchObject({ replicas: 1, updatedReplicas: 1, availableReplicas: 1 })
    expect(condition(d, 'Progressing')?.message).toBe(
      `ReplicaSet "${fresh.metadata.name}" has successfully progressed.`
    )
  })

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    await f.user.create('root', GVR.deployments, deployment('hist', { revisionHistoryLimit: 1 }))
    for (const image of ['nginx:1.26', 'nginx:1.25', 'nginx:1.24']) {
      await f.run()
      const d = (await f.get(GVR.deployments, 'hist')) as Any
      const spec = structuredClone(d.spec)
      spec.template.spec.containers[0].image = image
      await f.user.update('root', GVR.deployments, { ...d, spec })
    }
    await f.run()
    const d = await f.get(GVR.deployments, 'hist')
    const sets = owned(await f.list(GVR.replicasets, 'default'), d) as Any[]
    expect(
      sets.map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort()
    ).toEqual(['3', '4'])
  })

  it('deleting a Deployment garbage-collects its ReplicaSets and Pods', async () => {
    await f.user.delete('root', GVR.deployments, 'hist', { namespace: 'default' })
    await f.settle()
    await f.run()
    const names = (objs: KubeObject[]) => objs.map((o) => o.metadata.name)
    expect(
      names(await f.list(GVR.replicasets, 'default')).filter((n) => n?.startsWith('hist-'))
    ).toEqual([])
    expect(names(await f.list(GVR.pods, 'default')).filter((n) => n?.startsWith('hist-'))).toEqual(
      []
    )
  })

  it('removes a pod whose owning ReplicaSet does not exist', async () => {
    await f.user.create('root', GVR.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'orphan',
        namespace: 'default',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'gone',
            uid: 'no-such-uid',
            controller: true,
          },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    })
    await f.run()
    expect(await f.user.get('root', GVR.pods, 'orphan', 'default')).toBeUndefined()
  })
})

describe('Jobs, StatefulSets and DaemonSets', () => {
  it('a Job runs its pod to completion and is Complete', async () => {
    await f.user.create('root', GVR.jobs, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', namespace: 'default' },
      spec: {
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] },
        },
      },
    })
    await f.run()
    const job = (await f.get(GVR.jobs, 'once')) as Any
    expect(job.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6 })
    expect(job.status).toMatchObject({
      succeeded: 1,
      startTime: expect.any(String),
      completionTime: expect.any(String),
    })
    expect(job.status.active).toBeUndefined()
    for (const type of ['SuccessCriteriaMet', 'Complete'])
      expect(condition(job, type)).toMatchObject({ status: 'True', reason: 'CompletionsReached' })
    const pods = owned(await f.list(GVR.pods, 'default'), job) as Any[]
    expect(pods.map((p) => p.status.phase)).toEqual(['Succeeded'])
    expect(pods[0]?.metadata.labels?.['job-name']).toBe('once')
    expect(pods[0]?.status.containerStatuses[0].state.terminated.reason).toBe('Completed')
  })

  it('a StatefulSet gets ordinal pods and a status with matching revisions', async () => {
    const sts = deployment('db', { replicas: 2, serviceName: 'db' })
    await f.user.create('root', GVR.statefulsets, { ...sts, kind: 'StatefulSet' })
    await f.run()
    const s = (await f.get(GVR.statefulsets, 'db')) as Any
    const pods = owned(await f.list(GVR.pods, 'default'), s) as Any[]
    expect(pods.map((p) => p.metadata.name).sort()).toEqual(['db-0', 'db-1'])
    expect(s.status).toMatchObject({
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
    })
    expect(s.status.currentRevision).toBe(s.status.updateRevision)
  })

  it('a DaemonSet gets one pod on the node', async () => {
    const ds = deployment('agent')
    delete (ds.spec as Record<string, unknown>).replicas
    await f.user.create('root', GVR.daemonsets, { ...ds, kind: 'DaemonSet' })
    await f.run()
    const d = (await f.get(GVR.daemonsets, 'agent')) as Any
    expect(owned(await f.list(GVR.pods, 'default'), d)).toHaveLength(1)
    expect(d.status).toMatchObject({
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      numberReady: 1,
      numberAvailable: 1,
      updatedNumberScheduled: 1,
      observedGeneration: 1,
    })
  })
})
