/**
 * The cron's liveness sweep as Worker invocations (strict budgets, so an overrun fails): a walk
 * over more SyncTargets than one invocation's budget can write stops at its ceiling with its
 * cursor kept in the key-value store, the next ticks finish it, and once every SyncTarget says
 * what the rule calls for a tick writes nothing; the cron itself runs the sweep, so a SyncTarget
 * reads NeverSeen after one maintenance run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMaintenance } from '../../functions/maintenance.ts'
import { type LivenessTick, sweepLivenessTick } from '../../functions/maintenance-liveness.ts'
import { MAINTENANCE_NS } from '../../functions/maintenance-terminations.ts'
import { SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { runInvocation } from '../../lib/budget/frames.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../helpers/hub.ts'

const N = 12

let hub: TestHub
let space = ''
beforeAll(async () => {
  hub = await createTestHub()
  const ws = await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'imw' },
  })
  space = ws.body.spec.cluster
  for (let i = 0; i < N; i++) {
    const res = await hub.call('POST', `/clusters/${space}/apis/edge.kcp.io/v1alpha1/synctargets`, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: `e${String(i).padStart(2, '0')}` },
    })
    expect(res.status).toBe(201)
  }
}, 60_000)
afterAll(() => hub?.close())

/** One sweep tick as its own invocation with `budget` subrequests. */
async function tick(budget: number): Promise<LivenessTick> {
  let done: LivenessTick | undefined
  await runInvocation('cron', { subrequests: budget, mode: 'strict' }, async () => {
    done = await sweepLivenessTick(hub.deps)
  })
  return done as LivenessTick
}

const readiness = async () =>
  ((await hub.deps.objects.list({ cluster: space, ...SYNC_TARGETS })).items as KubeObject[]).map(
    (st) => (st.status as any)?.conditions?.find((c: any) => c.type === 'Ready')?.reason
  )

describe('the liveness sweep tick', () => {
  it('stops at its budget with its cursor kept, and the next ticks finish the walk', async () => {
    const first = await tick(40)
    expect(first.written).toBeGreaterThan(0)
    expect(first.written).toBeLessThan(N)
    expect(first.wrapped).toBe(false)
    let written = first.written
    for (let t = 0; t < 10 && written < N; t++) written += (await tick(40)).written
    expect(written).toBe(N)
    expect(await readiness()).toEqual(Array(N).fill('NeverSeen'))
    const idle = await tick(40)
    expect(idle).toMatchObject({ checked: N, written: 0, wrapped: true })
    expect((await hub.deps.kv.get(MAINTENANCE_NS, 'liveness'))?.value).toEqual({})
  })

  it('runs in every maintenance run', async () => {
    const res = await hub.call('POST', `/clusters/${space}/apis/edge.kcp.io/v1alpha1/synctargets`, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: 'late' },
    })
    expect(res.status).toBe(201)
    await runInvocation('cron', { subrequests: 1000, mode: 'strict' }, () =>
      runMaintenance(hub.deps, hub.store, { cron: '* * * * *', baseUrl: '' })
    )
    expect(await readiness()).toEqual(Array(N + 1).fill('NeverSeen'))
  })
})
