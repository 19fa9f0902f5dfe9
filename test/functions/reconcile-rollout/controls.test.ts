/**
 * The rollout step's controls against dynalite, each on its own Rollout over the same objects (the
 * one before deleted, so that none is governed by an older one): a
 * user pause holds everything and resume continues; a wave asking for approval waits for it; a
 * failed gate with Rollback sets the promoted waves back (Warning Event, GateFailed condition, the
 * first failures); by default the gate counts the summarize step's standings, and without any
 * every edge is pending, so the gate fails at its deadline and an approval resumes it; the
 * revision records are pruned to what the status names (at most three); a failed read changes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLACEMENT_SLICES, ROLLOUTS, SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
import { SETTLE_MS } from '../../../lib/rollout/revision.ts'
import type { Standing } from '../../../lib/rollout/standing.ts'
import { writeStandings } from '../../../lib/rollout/standing-store.ts'
import { createWorld, IMW, rolloutSpec, type World, WS } from './world.ts'

let w: World
let version = 0
/** Edits the governed ConfigMap and runs `name` until the edit is cut; the new revision. */
async function cutRevision(name: string) {
  version++
  await w.setConfigMap('cfg', `v${version}`)
  await w.run(name)
  w.advance(SETTLE_MS)
  await w.run(name)
  return (await w.revisions(name)).at(-1) ?? 0
}
/** Creates `name` with `spec` (the earlier tests' Rollouts deleted) and adopts its first revision. */
async function adopted(name: string, spec: Record<string, unknown>) {
  for (const r of await w.client.list(WS, ROLLOUTS))
    await w.client.delete(WS, ROLLOUTS, r.metadata.name ?? '')
  w.edgesAt(['c1', 'r1', 'r2', 'r3'], 1)
  await w.setConfigMap('cfg', 'v0')
  version = 0
  await w.createRollout(name, spec)
  await w.run(name)
  w.advance(SETTLE_MS)
  await w.run(name)
  expect(await w.status(name)).toMatchObject({ phase: 'Complete' })
}

beforeAll(async () => {
  w = await createWorld()
})
afterAll(() => w.close())

describe('the rollout step', () => {
  it('holds everything while paused, and goes on when resumed', async () => {
    await adopted('paused', rolloutSpec())
    const two = await cutRevision('paused')
    expect(await w.status('paused')).toMatchObject({ revision: two, currentWave: 'canary' })
    await w.patchSpec('paused', { paused: true })
    w.edgesAt(['c1'], two)
    for (let i = 0; i < 3; i++) {
      await w.run('paused')
      w.advance(60_000)
    }
    const held = await w.status('paused')
    expect(held).toMatchObject({ phase: 'Paused', revision: two, currentWave: 'canary' })
    expect(held.waves[1].revision).not.toBe(two)
    await w.patchSpec('paused', { paused: false })
    await w.run('paused')
    w.advance(10_000)
    await w.run('paused')
    expect(await w.status('paused')).toMatchObject({ phase: 'Progressing', currentWave: 'rest' })
  })

  it('waits for an approval of a wave at the revision, then promotes it', async () => {
    const waves = [
      { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
      { name: 'rest', approval: true },
    ]
    await adopted('approved', rolloutSpec({ waves }))
    const rev = await cutRevision('approved')
    w.edgesAt(['c1'], rev)
    await w.run('approved')
    w.advance(10_000)
    await w.run('approved')
    expect(await w.status('approved')).toMatchObject({
      phase: 'WaitingForApproval',
      currentWave: 'rest',
    })
    await w.patchSpec('approved', { approvals: [{ wave: 'rest', revision: rev }] })
    await w.run('approved')
    const s = await w.status('approved')
    expect(s).toMatchObject({ phase: 'Progressing', currentWave: 'rest' })
    expect(s.waves[1]).toMatchObject({ revision: rev, pending: 3 })
  })

  it('rolls the promoted waves back when a gate fails under Rollback', async () => {
    await adopted('rollback', rolloutSpec({ onFailure: 'Rollback' }))
    const bad = await cutRevision('rollback')
    w.edgesAt(['c1'], bad, { state: 'failed', reason: 'ImagePullBackOff', message: 'no image' })
    await w.run('rollback')
    const s = await w.status('rollback')
    expect(s).toMatchObject({ phase: 'RolledBack', revision: bad, completedRevision: bad - 1 })
    expect(s.currentWave).toBeUndefined()
    expect(s.waves[0]).toMatchObject({
      revision: bad - 1,
      failureReason: 'TooManyFailures',
    })
    expect(s.conditions.find((c: any) => c.type === 'GateFailed')).toMatchObject({
      status: 'True',
      reason: 'TooManyFailures',
    })
    const warnings = (await w.events()).filter((e) => e.type === 'Warning')
    const rolledBack = warnings.find((e) => e.reason === 'RolledBack')
    expect(rolledBack?.message).toContain(`back at revision ${bad - 1}`)
  })

  it('stops at a failed gate under Pause, naming the first failed edges', async () => {
    await adopted('stopped', rolloutSpec())
    const bad = await cutRevision('stopped')
    w.edgesAt(['c1'], bad, { state: 'failed', reason: 'CrashLoopBackOff', message: 'exit 1' })
    await w.run('stopped')
    const s = await w.status('stopped')
    expect(s).toMatchObject({ phase: 'Paused', revision: bad, currentWave: 'canary' })
    expect(s.waves[0]).toMatchObject({ revision: bad, failed: 1, failureReason: 'TooManyFailures' })
    expect(s.waves[0].failures).toEqual([
      {
        cluster: expect.any(String),
        syncTarget: 'c1',
        reason: 'CrashLoopBackOff',
        message: 'exit 1',
      },
    ])
    expect(s.waves[1].revision).toBe(bad - 1)
  })

  it('by default counts the summarize step’s standings: a ready canary passes', async () => {
    await adopted('stood', rolloutSpec())
    const rev = await cutRevision('stood')
    const imw = (await w.client.space(IMW)).id
    const c1 = (await w.client.get(IMW, SYNC_TARGETS, 'c1'))?.metadata.uid ?? ''
    const ready: Standing = { revision: rev, state: 'ready' }
    const standings = new Map([[mailboxName(imw, c1), new Map([['stood', ready]])]])
    await writeStandings(w.hub.deps.kv, `${w.wsId}/all`, standings)
    const none = { tally: undefined }
    await w.run('stood', none)
    expect((await w.status('stood')).waves[0]).toMatchObject({ edges: 1, ready: 1, pending: 0 })
  })

  it('without standings counts every edge pending: the gate fails at its deadline', async () => {
    await adopted('unreported', rolloutSpec())
    const rev = await cutRevision('unreported')
    const none = { tally: undefined }
    w.edgesAt(['c1'], rev)
    await w.run('unreported', none)
    expect((await w.status('unreported')).waves[0]).toMatchObject({ pending: 1, ready: 0 })
    w.advance(100_000)
    await w.run('unreported', none)
    const s = await w.status('unreported')
    expect(s).toMatchObject({ phase: 'Paused', currentWave: 'canary' })
    expect(s.waves[0]).toMatchObject({ failureReason: 'DeadlineExceeded' })
    const gateFailed = (await w.events()).filter((e) => e.reason === 'GateFailed')
    expect(gateFailed.map((e) => e.message).join()).toContain('stopped at wave canary')
    await w.patchSpec('unreported', { approvals: [{ wave: 'canary', revision: rev }] })
    await w.run('unreported', none)
    expect(await w.status('unreported')).toMatchObject({ phase: 'Progressing' })
  })

  it('keeps only the revisions the status names: at most three', async () => {
    await adopted('gc', rolloutSpec())
    for (let i = 0; i < 4; i++) await cutRevision('gc')
    const s = await w.status('gc')
    const kept = await w.revisions('gc')
    expect(kept.length).toBeLessThanOrEqual(3)
    expect(kept).toContain(s.completedRevision)
    expect(kept).toContain(s.revision)
    expect(kept).toContain(s.waves[0].from)
    expect(kept[0]).toBe(1)
    expect(kept.at(-1)).toBe(5)
  })

  it('changes nothing when a read fails', async () => {
    await adopted('failing', rolloutSpec())
    await w.setConfigMap('cfg', 'failing')
    await w.run('failing')
    w.advance(SETTLE_MS)
    const before = { status: await w.status('failing'), revisions: await w.revisions('failing') }
    const client: HubClient = {
      ...w.client,
      list: (space, gvr, filter) =>
        gvr.resource === PLACEMENT_SLICES.resource
          ? Promise.reject(new Error('store unavailable'))
          : w.client.list(space, gvr, filter),
    }
    await expect(w.run('failing', { client })).rejects.toThrow('store unavailable')
    expect(await w.status('failing')).toEqual(before.status)
    expect(await w.revisions('failing')).toEqual(before.revisions)
    expect((await w.run('failing')).outcome).toContain('revision 2 cut')
  })
})
