/**
 * The Events the simulator records, as kube's controllers, scheduler and kubelet do: about a
 * Deployment (ScalingReplicaSet up from 0, up and down on scale), its ReplicaSet (SuccessfulCreate,
 * SuccessfulDelete), each pod that starts (Scheduled, then Pulled, Created and Started per
 * container) and a Job (SuccessfulCreate, Completed once), StatefulSet and DaemonSet pods; each
 * names its object with the uid `kubectl describe` selects on, a pass that changes nothing
 * records nothing, and Events go an hour after they were last seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../../lib/edge-sim/simulator.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createSimFixture, deployment, GVR, NODE, type SimFixture } from './sim-fixture.ts'

let f: SimFixture
beforeAll(async () => {
  f = await createSimFixture()
})
afterAll(() => f?.close())

const EVENTS = { group: '', version: 'v1', resource: 'events' }

type Event = KubeObject & {
  involvedObject: Record<string, string>
  reason: string
  message: string
  type: string
  count: number
  source: { component: string; host?: string }
}

/**
 * The events about `obj` (by uid), as `reason: message`, in list order (by name), which must be
 * the order they were recorded in (resourceVersion order).
 */
async function eventsAbout(obj: KubeObject): Promise<string[]> {
  const all = (await f.list(EVENTS, obj.metadata.namespace ?? 'default')) as Event[]
  const about = all.filter((e) => e.involvedObject.uid === obj.metadata.uid)
  const rv = (e: Event) => Number(e.metadata.resourceVersion)
  expect(about.map(rv)).toEqual(about.map(rv).sort((a, b) => a - b))
  return about.map((e) => `${e.reason}: ${e.message}`)
}

const podsOf = async (owner: KubeObject, gvr = GVR.pods) =>
  (await f.list(gvr, 'default')).filter((p) =>
    p.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid)
  )

async function scale(name: string, replicas: number): Promise<void> {
  const d = (await f.get(GVR.deployments, name)) as KubeObject & { spec: object }
  await f.user.update('root', GVR.deployments, { ...d, spec: { ...d.spec, replicas } } as never)
  await f.run()
}

describe('Events recorded by the simulator', () => {
  it('a Deployment: ScalingReplicaSet from 0, its ReplicaSet creating pods, each pod starting', async () => {
    await f.user.create('root', GVR.deployments, deployment('evented', { replicas: 2 }))
    await f.run()
    const d = await f.get(GVR.deployments, 'evented')
    const [rs] = await podsOf(d, GVR.replicasets)
    if (!rs) throw new Error('no ReplicaSet')
    expect(await eventsAbout(d)).toEqual([
      `ScalingReplicaSet: Scaled up replica set ${rs.metadata.name} from 0 to 2`,
    ])
    const pods = await podsOf(rs)
    expect(pods).toHaveLength(2)
    expect((await eventsAbout(rs)).sort()).toEqual(
      pods.map((p) => `SuccessfulCreate: Created pod: ${p.metadata.name}`).sort()
    )
    const pod = pods[0] as KubeObject
    expect(await eventsAbout(pod)).toEqual([
      `Scheduled: Successfully assigned default/${pod.metadata.name} to ${NODE.name}`,
      'Pulled: Container image "nginx:1.27" already present on machine',
      'Created: Created container: main',
      'Started: Started container: main',
    ])
    const all = (await f.list(EVENTS, 'default')) as Event[]
    const scaled = all.find((e) => e.reason === 'ScalingReplicaSet') as Event
    expect(scaled).toMatchObject({
      metadata: { name: expect.stringMatching(/^evented\.[0-9a-f]{16}$/), namespace: 'default' },
      involvedObject: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'evented',
        namespace: 'default',
        uid: d.metadata.uid,
      },
      type: 'Normal',
      count: 1,
      source: { component: 'deployment-controller' },
      firstTimestamp: expect.any(String),
      lastTimestamp: expect.any(String),
    })
    const started = all.find((e) => e.reason === 'Started') as Event
    expect(started.source).toEqual({ component: 'kubelet', host: NODE.name })
    expect(started.involvedObject.fieldPath).toBe('spec.containers{main}')
  })

  it('scaling down records ScalingReplicaSet down and SuccessfulDelete; an idle pass records nothing', async () => {
    await scale('evented', 1)
    const d = await f.get(GVR.deployments, 'evented')
    const [rs] = await podsOf(d, GVR.replicasets)
    if (!rs) throw new Error('no ReplicaSet')
    expect((await eventsAbout(d)).at(-1)).toBe(
      `ScalingReplicaSet: Scaled down replica set ${rs.metadata.name} from 2 to 1`
    )
    expect((await eventsAbout(rs)).filter((e) => e.startsWith('SuccessfulDelete'))).toHaveLength(1)
    const before = (await f.list(EVENTS, 'default')).length
    expect((await f.sim.tick()).writes).toBe(0)
    expect((await f.list(EVENTS, 'default')).length).toBe(before)
  })

  it('a rollout scales the new ReplicaSet up and the old one down to 0', async () => {
    const d = (await f.get(GVR.deployments, 'evented')) as KubeObject & { spec: any }
    const template = structuredClone(d.spec.template)
    template.metadata.annotations = { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' }
    await f.user.update('root', GVR.deployments, { ...d, spec: { ...d.spec, template } } as never)
    await f.run()
    const sets = await podsOf(d, GVR.replicasets)
    const byReplicas = (n: number) =>
      sets.find((rs) => (rs.spec as { replicas: number }).replicas === n)?.metadata.name
    const events = await eventsAbout(d)
    expect(events).toContain(
      `ScalingReplicaSet: Scaled up replica set ${byReplicas(1)} from 0 to 1`
    )
    expect(events).toContain(
      `ScalingReplicaSet: Scaled down replica set ${byReplicas(0)} from 1 to 0`
    )
  })

  it('a Job: SuccessfulCreate for its pod and Completed once', async () => {
    const job = await f.user.create('root', GVR.jobs, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', namespace: 'default' },
      spec: {
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'once', image: 'busybox' }] },
        },
      },
    } as KubeObject)
    await f.run()
    const [pod] = await podsOf(job)
    expect(await eventsAbout(job)).toEqual([
      `SuccessfulCreate: Created pod: ${pod?.metadata.name}`,
      'Completed: Job completed',
    ])
  })

  it('StatefulSet and DaemonSet pods get their controllers’ SuccessfulCreate', async () => {
    const template = {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'postgres:17' }] },
    }
    const selector = { matchLabels: { app: 'db' } }
    const sts = await f.user.create('root', GVR.statefulsets, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: { replicas: 1, serviceName: 'db', selector, template },
    } as KubeObject)
    const ds = await f.user.create('root', GVR.daemonsets, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: { selector, template },
    } as KubeObject)
    await f.run()
    expect(await eventsAbout(sts)).toEqual([
      'SuccessfulCreate: create Pod db-0 in StatefulSet db successful',
    ])
    const [dsPod] = await podsOf(ds)
    expect(await eventsAbout(ds)).toEqual([
      `SuccessfulCreate: Created pod: ${dsPod?.metadata.name}`,
    ])
  })

  it('expires Events an hour after they were last seen, not before', async () => {
    const at = (offsetMs: number) =>
      createSimulator({
        deps: f.deps,
        node: NODE,
        log: silentLogger,
        now: () => new Date(Date.now() + offsetMs),
      })
    const count = async () => (await f.list(EVENTS)).length
    const before = await count()
    expect(before).toBeGreaterThan(0)
    await at(30 * 60_000).tick()
    expect(await count()).toBe(before)
    await at(61 * 60_000).tick()
    expect(await count()).toBe(0)
  })
})
