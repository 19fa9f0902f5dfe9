/**
 * The failures a simulated edge is told to have (lib/edge-sim/faults.ts), as a kubelet and kube's
 * controllers report them, on a fixture edge whose simulator runs on a hand-moved clock: a
 * crash-looping container (sim-crash-loop.ts) restarts with the kubelet's back-off and stalls its
 * Deployment into ProgressDeadlineExceeded while the old pods keep serving; a Job whose pods fail
 * (sim-pod-end.ts, sim-jobs.ts) is retried after the controller's back-off and fails past its
 * backoffLimit; the `image-pull` fault fails a pull from a registry that resolves; images the
 * faults do not name run as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fault } from '../../../lib/edge-sim/faults.ts'
import { createSimulator, type Simulator } from '../../../lib/edge-sim/simulator.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createSimFixture, deployment, GVR, NODE, type SimFixture } from './sim-fixture.ts'

type Any = KubeObject & Record<string, any>
const EVENTS = { group: '', version: 'v1', resource: 'events' }
const FAULTS: Fault[] = [
  { kind: 'crash-loop', image: '*:bad' },
  { kind: 'job-fail', image: 'batch:bad' },
  { kind: 'image-pull', image: 'registry.example/missing:*' },
]

let f: SimFixture
let sim: Simulator
let clock = Date.parse('2026-12-01T12:00:00Z')
beforeAll(async () => {
  f = await createSimFixture()
  sim = createSimulator({
    deps: f.deps,
    node: NODE,
    jobDurationMs: 1_000,
    faults: FAULTS,
    log: silentLogger,
    now: () => new Date(clock),
  })
})
afterAll(() => f?.close())

/** Passes until one writes nothing; the last pass's wake-up time. */
async function settle(): Promise<number | undefined> {
  for (let i = 0; i < 30; i++) {
    await f.settle()
    const r = await sim.tick()
    if (r.writes === 0) return r.wakeAt
  }
  throw new Error('the simulator still writes')
}

async function setImage(name: string, image: string): Promise<void> {
  const d = (await f.get(GVR.deployments, name)) as Any
  const containers = [{ name: 'main', image }]
  await f.user.update('root', GVR.deployments, {
    ...d,
    spec: { ...d.spec, template: { ...d.spec.template, spec: { containers } } },
  })
}

const podsWith = async (image: string) =>
  ((await f.list(GVR.pods, 'default')) as Any[]).filter(
    (p) => p.spec.containers[0].image === image && !p.metadata.deletionTimestamp
  )
const warnings = async (name: string) =>
  ((await f.list(EVENTS, 'default')) as Any[])
    .filter((e) => e.involvedObject.name === name && e.type === 'Warning')
    .map((e) => [e.reason, e.message])
const condition = (o: Any, type: string) => o.status?.conditions?.find((c: any) => c.type === type)

describe('a container that crash-loops', () => {
  it('restarts with the back-off, Running but not ready, while the old pods serve', async () => {
    await f.user.create(
      'root',
      GVR.deployments,
      deployment('shop', { replicas: 1, progressDeadlineSeconds: 60 })
    )
    await settle()
    await setImage('shop', 'shop:bad')
    const wake = await settle()
    const [pod] = await podsWith('shop:bad')
    expect(pod?.status).toMatchObject({ phase: 'Running' })
    expect(pod?.status.containerStatuses[0]).toMatchObject({
      ready: false,
      restartCount: 0,
      state: {
        waiting: { reason: 'CrashLoopBackOff', message: expect.stringContaining('back-off 10s') },
      },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    })
    expect(condition(pod as Any, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
    })
    expect(await warnings(pod?.metadata.name ?? '')).toEqual([
      ['BackOff', expect.stringMatching(/^Back-off restarting failed container main in pod shop-/)],
    ])
    expect(wake).toBe(clock + 10_000)
    expect(await podsWith('nginx:1.27')).toHaveLength(1)

    clock += 10_000
    await settle()
    clock += 10_000
    const next = await settle()
    const [again] = await podsWith('shop:bad')
    expect(again?.status.containerStatuses[0].restartCount).toBe(2)
    expect(next).toBe(clock + 20_000)
  })

  it('stalls the rollout into ProgressDeadlineExceeded', async () => {
    clock += 61_000
    await settle()
    const d = (await f.get(GVR.deployments, 'shop')) as Any
    expect(condition(d, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    })
    expect(d.status).toMatchObject({ availableReplicas: 1, updatedReplicas: 1 })
  })

  it('runs an image the faults do not name', async () => {
    await setImage('shop', 'shop:good')
    await settle()
    const d = (await f.get(GVR.deployments, 'shop')) as Any
    expect(condition(d, 'Progressing')).toMatchObject({ reason: 'NewReplicaSetAvailable' })
    expect(await podsWith('shop:bad')).toHaveLength(0)
  })
})

describe('a Job whose pods fail', () => {
  const job = (name: string, image: string, backoffLimit: number): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      backoffLimit,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image }] } },
    } as never,
  })

  it('retries after the back-off and fails past its backoffLimit', async () => {
    await f.user.create('root', GVR.jobs, job('batch', 'batch:bad', 1))
    await settle()
    clock += 1_000
    const wake = await settle()
    let j = (await f.get(GVR.jobs, 'batch')) as Any
    expect(j.status).toMatchObject({ failed: 1 })
    expect(condition(j, 'Failed')).toBeUndefined()
    expect(wake).toBe(clock + 10_000)
    const [first] = ((await f.list(GVR.pods, 'default')) as Any[]).filter((p) =>
      (p.metadata.name ?? '').startsWith('batch-')
    )
    expect(first?.status).toMatchObject({ phase: 'Failed' })
    expect(first?.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    })

    clock += 10_000
    await settle()
    clock += 1_000
    await settle()
    j = (await f.get(GVR.jobs, 'batch')) as Any
    expect(j.status).toMatchObject({ failed: 2 })
    expect(j.status.active).toBeUndefined()
    for (const type of ['FailureTarget', 'Failed'])
      expect(condition(j, type)).toMatchObject({
        status: 'True',
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit',
      })
    expect(await warnings('batch')).toEqual([
      ['BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ])
    clock += 600_000
    await settle()
    expect(
      ((await f.list(GVR.pods, 'default')) as Any[]).filter((p) =>
        (p.metadata.name ?? '').startsWith('batch-')
      )
    ).toHaveLength(2)
  })

  it('completes a Job whose image the faults do not name', async () => {
    await f.user.create('root', GVR.jobs, job('fine', 'batch:good', 1))
    await settle()
    clock += 1_000
    await settle()
    const j = (await f.get(GVR.jobs, 'fine')) as Any
    expect(condition(j, 'Complete')).toMatchObject({ status: 'True' })
    expect(j.status.failed).toBeUndefined()
  })
})

describe('the image-pull fault', () => {
  it('fails a pull from a registry that resolves, saying the reference is not found', async () => {
    await f.user.create(
      'root',
      GVR.deployments,
      deployment('lost', {
        template: {
          metadata: { labels: { app: 'lost' } },
          spec: { containers: [{ name: 'main', image: 'registry.example/missing:v1' }] },
        },
      })
    )
    await settle()
    const [pod] = await podsWith('registry.example/missing:v1')
    expect(pod?.status).toMatchObject({ phase: 'Pending' })
    expect(pod?.status.containerStatuses[0].state.waiting.reason).toBe('ImagePullBackOff')
    expect(await warnings(pod?.metadata.name ?? '')).toEqual([
      ['Failed', expect.stringContaining('registry.example/missing:v1: not found')],
      ['Failed', 'Error: ErrImagePull'],
    ])
  })
})
