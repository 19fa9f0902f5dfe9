/**
 * An image a simulated edge cannot pull (lib/edge-sim/sim-image-pull.ts) and the rollout it stalls
 * (sim-deployment-status.ts), on a fixture edge whose simulator runs on a hand-moved clock: the
 * pods stay Pending in ImagePullBackOff with the kubelet's Warnings, the old pods keep serving, and
 * once progressDeadlineSeconds pass without progress the Deployment's Progressing condition is
 * False/ProgressDeadlineExceeded (the pass asks to be woken at that moment); a template with a
 * pullable image makes it progress again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canPull } from '../../../lib/edge-sim/sim-image-pull.ts'
import { createSimulator, type Simulator } from '../../../lib/edge-sim/simulator.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createSimFixture, deployment, GVR, NODE, type SimFixture } from './sim-fixture.ts'

let f: SimFixture
let sim: Simulator
let clock = Date.parse('2026-12-01T12:00:00Z')
beforeAll(async () => {
  f = await createSimFixture()
  sim = createSimulator({
    deps: f.deps,
    node: NODE,
    jobDurationMs: 0,
    log: silentLogger,
    now: () => new Date(clock),
  })
})
afterAll(() => f?.close())

type Any = KubeObject & Record<string, any>
const progressing = (d: Any) => d.status?.conditions?.find((c: any) => c.type === 'Progressing')

/** Passes until one writes nothing; the last pass's wake-up time. */
async function settle(): Promise<number | undefined> {
  for (let i = 0; i < 20; i++) {
    await f.settle()
    const r = await sim.tick()
    if (r.writes === 0) return r.wakeAt
  }
  throw new Error('the simulator still writes')
}

async function setImage(image: string): Promise<void> {
  const d = (await f.get(GVR.deployments, 'shop')) as Any
  const containers = [{ name: 'main', image }]
  await f.user.update('root', GVR.deployments, {
    ...d,
    spec: { ...d.spec, template: { ...d.spec.template, spec: { containers } } },
  })
}

const pods = async () => (await f.list(GVR.pods, 'default')) as Any[]

describe('an image the edge cannot pull', () => {
  it.each([
    ['nginx:1.27', true],
    ['registry.example.com/shop:v2', true],
    ['registry.invalid/shop:v2', false],
    ['mirror.registry.invalid:5000/shop:v2', false],
    ['invalid/shop:v2', true],
  ])('%s can be pulled: %s', (image, want) => {
    expect(canPull(image)).toBe(want)
  })

  it('leaves the new pods Pending in ImagePullBackOff while the old ones keep running', async () => {
    await f.user.create(
      'root',
      GVR.deployments,
      deployment('shop', { replicas: 2, progressDeadlineSeconds: 30 })
    )
    await settle()
    await setImage('registry.invalid/shop:v2')
    await settle()
    const all = await pods()
    const stuck = all.filter((p) => p.spec.containers[0].image === 'registry.invalid/shop:v2')
    expect(stuck).toHaveLength(2)
    for (const p of stuck) {
      expect(p.status.phase).toBe('Pending')
      expect(p.status.containerStatuses[0]).toMatchObject({
        ready: false,
        state: { waiting: { reason: 'ImagePullBackOff' } },
      })
      expect(p.status.conditions).toContainEqual(
        expect.objectContaining({ type: 'Ready', status: 'False' })
      )
    }
    expect(all.filter((p) => p.status.phase === 'Running')).toHaveLength(2)
    const events = (await f.list(
      { group: '', version: 'v1', resource: 'events' },
      'default'
    )) as Any[]
    const failed = events.filter(
      (e) => e.involvedObject.name === stuck[0]?.metadata.name && e.type === 'Warning'
    )
    expect(failed.map((e) => [e.reason, e.message])).toEqual([
      ['Failed', expect.stringContaining('lookup registry.invalid: no such host')],
      ['Failed', 'Error: ErrImagePull'],
    ])
    const d = (await f.get(GVR.deployments, 'shop')) as Any
    expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 2, availableReplicas: 2 })
    expect(progressing(d)).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' })
  })

  it('times the rollout out once its deadline passes without progress, and wakes for it', async () => {
    const before = progressing((await f.get(GVR.deployments, 'shop')) as Any)
    const due = Date.parse(before.lastUpdateTime) + 30_000
    clock = due - 1_000
    expect(await settle()).toBe(due)
    expect(progressing((await f.get(GVR.deployments, 'shop')) as Any).status).toBe('True')
    clock = due
    await settle()
    const d = (await f.get(GVR.deployments, 'shop')) as Any
    expect(progressing(d)).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: expect.stringMatching(/^ReplicaSet "shop-[0-9a-z]+" has timed out progressing\.$/),
    })
    clock = due + 60_000
    expect(await settle()).toBeUndefined()
    expect(progressing((await f.get(GVR.deployments, 'shop')) as Any).reason).toBe(
      'ProgressDeadlineExceeded'
    )
  })

  it('progresses again with an image it can pull', async () => {
    await setImage('nginx:1.28')
    await settle()
    const d = (await f.get(GVR.deployments, 'shop')) as Any
    expect(progressing(d)).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' })
    expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 })
  })
})
