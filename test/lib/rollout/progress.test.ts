/**
 * A Rollout's progress (lib/rollout/progress.ts) through whole scenarios: a small world of edges
 * in three waves, each running some revision in some state; the tests move the world and the clock
 * and feed each status back, as the rollout step would.
 */
import { describe, expect, it } from 'vitest'
import type { RolloutSpec, RolloutStatus } from '../../../lib/apis/edge-rollout.ts'
import { belowCut } from '../../../lib/rollout/edge-order.ts'
import { type ProgressResult, progress, type WaveView } from '../../../lib/rollout/progress.ts'

type EdgeState = 'ready' | 'failed' | 'stale' | 'pending'
type Edge = { uid: string; wave: number; runs: number; state: EdgeState }

/** A world of edges; `step()` runs progress once and keeps its status, `apply()` lets edges catch up. */
function world(spec: RolloutSpec, waveSizes: number[]) {
  const edges: Edge[] = waveSizes.flatMap((n, wave) =>
    Array.from({ length: n }, (_, i) => ({
      uid: `w${wave}-e${i}`,
      wave,
      runs: 1,
      state: 'ready' as EdgeState,
    }))
  )
  let status: RolloutStatus | undefined
  let generation = 1
  let now = Date.parse('2026-12-03T10:00:00Z')
  let newest = 1
  let last: ProgressResult | undefined
  const views = (): WaveView[] =>
    waveSizes.map((_, wave) => {
      const mine = edges.filter((e) => e.wave === wave)
      return {
        uids: mine.map((e) => e.uid),
        tally: (revision, cut) => {
          const t = { edges: 0, ready: 0, failed: 0, stale: 0, pending: 0 }
          for (const e of mine) {
            if (!belowCut(revision, e.uid, cut)) continue
            t.edges++
            if (e.state === 'stale') t.stale++
            else if (e.runs !== revision) t.pending++
            else t[e.state]++
          }
          return t
        },
      }
    })
  const w = {
    edges,
    spec,
    get status() {
      return status as RolloutStatus
    },
    get last() {
      return last as ProgressResult
    },
    step() {
      last = progress({
        rollout: { spec: w.spec, status, metadata: { generation } },
        newest,
        waves: views(),
        nowMs: now,
      })
      status = last.status
      return last
    },
    /** The edges take what their wave's status says they get, in the state `state` gives. */
    apply(state: (e: Edge, revision: number) => EdgeState = () => 'ready') {
      for (const e of edges) {
        const ws = status?.waves?.[e.wave]
        const revision =
          ws?.revision !== undefined && belowCut(ws.revision, e.uid, ws.cut ?? 1)
            ? ws.revision
            : (status?.completedRevision ?? 1)
        if (e.state === 'stale') continue
        e.runs = revision
        e.state = state(e, revision)
      }
    },
    cut() {
      newest++
    },
    edit(next: Partial<RolloutSpec>) {
      w.spec = { ...w.spec, ...next }
      generation++
    },
    tick(seconds: number) {
      now += seconds * 1000
    },
  }
  return w
}

const waves = [
  { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
  { name: 'early', locationSelectors: [{ matchLabels: { ring: 'early' } }] },
  { name: 'rest' },
]
const base: RolloutSpec = { waves, gate: { soakSeconds: 30, deadlineSeconds: 300 } }
const revisions = (s: RolloutStatus) => s.waves?.map((w) => w.revision)
const reasons = (r: ProgressResult) => r.events.map((e) => e.reason)

describe('progress', () => {
  it('adopts the first revision as completed', () => {
    const w = world(base, [1, 2, 3])
    w.step()
    expect(w.status).toMatchObject({ phase: 'Complete', revision: 1, completedRevision: 1 })
    expect(w.status.currentWave).toBeUndefined()
    expect(revisions(w.status)).toEqual([1, 1, 1])
  })

  it('takes a good revision through the waves in order, each after its gate and soak', () => {
    const w = world(base, [1, 2, 3])
    w.step()
    w.cut()
    expect(reasons(w.step())).toEqual(['NewRevision', 'WavePromoted'])
    expect(w.status).toMatchObject({ phase: 'Progressing', revision: 2, currentWave: 'canary' })
    expect(revisions(w.status)).toEqual([2, 1, 1])
    expect(w.status.waves?.[0]).toMatchObject({ edges: 1, pending: 1, ready: 0 })

    w.apply()
    expect(w.step().requeueAfterMs).toBe(30_000)
    expect(w.status.phase).toBe('WaitingForSoak')
    w.tick(29)
    expect(w.step().requeueAfterMs).toBe(1_000)
    expect(revisions(w.status)).toEqual([2, 1, 1])
    w.tick(1)
    expect(reasons(w.step())).toEqual(['WavePromoted'])
    expect(w.status).toMatchObject({ currentWave: 'early', phase: 'Progressing' })
    expect(revisions(w.status)).toEqual([2, 2, 1])

    w.apply()
    w.step()
    w.tick(30)
    w.step()
    expect(revisions(w.status)).toEqual([2, 2, 2])
    w.apply()
    w.step()
    w.tick(30)
    expect(reasons(w.step())).toEqual(['RolloutComplete'])
    expect(w.status).toMatchObject({ phase: 'Complete', revision: 2, completedRevision: 2 })
    expect(w.edges.every((e) => e.runs === 2)).toBe(true)
  })

  it('pauses at a failed wave with the later waves still at the previous revision', () => {
    const w = world(base, [2, 2, 2])
    w.step()
    w.cut()
    w.step()
    w.apply((e) => (e.uid === 'w0-e1' ? 'failed' : 'ready'))
    const r = w.step()
    expect(reasons(r)).toEqual(['GateFailed'])
    expect(r.events[0]?.message).toContain('add {wave: canary, revision: 2} to spec.approvals')
    expect(w.status).toMatchObject({ phase: 'Paused', revision: 2, completedRevision: 1 })
    expect(w.status.waves?.[0]).toMatchObject({ failureReason: 'TooManyFailures', failed: 1 })
    expect(revisions(w.status)).toEqual([2, 1, 1])
    // Level-based, but a failure holds: the edge recovering does not resume by itself.
    w.apply()
    w.tick(600)
    expect(w.step().events).toEqual([])
    expect(w.status.phase).toBe('Paused')
    expect(revisions(w.status)).toEqual([2, 1, 1])
  })

  it('resumes a failed wave on an approval added after the failure, with a fresh deadline', () => {
    const w = world(base, [2, 2, 2])
    w.step()
    w.cut()
    w.step()
    w.apply((e) => (e.uid === 'w0-e1' ? 'failed' : 'ready'))
    w.step()
    w.apply()
    w.edit({ approvals: [{ wave: 'canary', revision: 2 }] })
    w.step()
    expect(w.status.phase).toBe('WaitingForSoak')
    expect(w.status.waves?.[0]?.failedAt).toBeUndefined()
    w.tick(30)
    w.step()
    expect(w.status.currentWave).toBe('early')
  })

  it('a fixed source (a new revision) supersedes the failed one from the first wave', () => {
    const w = world(base, [1, 1, 1])
    w.step()
    w.cut()
    w.step()
    w.apply(() => 'failed')
    w.step()
    w.cut()
    expect(reasons(w.step())).toEqual(['NewRevision', 'WavePromoted'])
    expect(w.status).toMatchObject({ phase: 'Progressing', revision: 3, currentWave: 'canary' })
    expect(w.status.waves?.[0]?.failedAt).toBeUndefined()
    expect(revisions(w.status)).toEqual([3, 1, 1])
  })

  it('rolls the promoted waves back to the completed revision with onFailure Rollback', () => {
    const w = world({ ...base, onFailure: 'Rollback' }, [1, 1, 1])
    w.step()
    w.cut()
    w.step()
    w.apply()
    w.step()
    w.tick(30)
    w.step()
    expect(revisions(w.status)).toEqual([2, 2, 1])
    w.apply(() => 'failed')
    const r = w.step()
    expect(reasons(r)).toEqual(['RolledBack'])
    expect(r.events[0]).toMatchObject({ type: 'Warning' })
    expect(w.status).toMatchObject({ phase: 'RolledBack', revision: 2, completedRevision: 1 })
    expect(revisions(w.status)).toEqual([1, 1, 1])
    w.apply()
    expect(w.edges.map((e) => e.runs)).toEqual([1, 1, 1])
    w.tick(600)
    w.step()
    expect(w.status.phase).toBe('RolledBack')
  })

  it('fails a wave whose edges do not become ready before the deadline', () => {
    const w = world(base, [1, 1, 1])
    w.step()
    w.cut()
    expect(w.step().requeueAfterMs).toBe(300_000)
    w.tick(299)
    w.step()
    expect(w.status.phase).toBe('Progressing')
    w.tick(1)
    w.step()
    expect(w.status.waves?.[0]).toMatchObject({ failureReason: 'DeadlineExceeded' })
    expect(w.status.phase).toBe('Paused')
  })

  it('waits for an approval of this revision before promoting a wave that asks for one', () => {
    const spec: RolloutSpec = {
      ...base,
      waves: [waves[0], { ...waves[1], approval: true }, waves[2]] as RolloutSpec['waves'],
      approvals: [{ wave: 'early', revision: 1 }],
    }
    const w = world(spec, [1, 1, 1])
    w.step()
    w.cut()
    w.step()
    w.apply()
    w.step()
    w.tick(30)
    w.step()
    expect(w.status).toMatchObject({ phase: 'WaitingForApproval', currentWave: 'early' })
    expect(revisions(w.status)).toEqual([2, 1, 1])
    w.tick(3600)
    w.step()
    expect(w.status.phase).toBe('WaitingForApproval')
    w.edit({ approvals: [{ wave: 'early', revision: 2 }] })
    expect(reasons(w.step())).toEqual(['WavePromoted'])
    expect(revisions(w.status)).toEqual([2, 2, 1])
  })

  it('promotes a wave maxEdges at a time, each batch gated', () => {
    const spec: RolloutSpec = {
      ...base,
      waves: [{ ...waves[0], maxEdges: 2 }, waves[1], waves[2]] as RolloutSpec['waves'],
    }
    const w = world(spec, [5, 1, 1])
    w.step()
    w.cut()
    w.step()
    const on2 = () => w.edges.filter((e) => e.wave === 0 && e.runs === 2).length
    w.apply()
    expect(on2()).toBe(2)
    expect(w.status.waves?.[0]).toMatchObject({ edges: 2, pending: 2 })
    w.step()
    w.tick(30)
    w.step()
    w.apply()
    expect(on2()).toBe(4)
    expect(w.status.currentWave).toBe('canary')
    w.step()
    w.tick(30)
    w.step()
    w.apply()
    expect(on2()).toBe(5)
    w.step()
    w.tick(30)
    w.step()
    expect(w.status.currentWave).toBe('early')
  })

  it('staleEdges Skip passes without the stale edge, which gets the revision when it returns', () => {
    const w = world({ ...base, gate: { ...base.gate, staleEdges: 'Skip' } }, [2, 1, 1])
    w.step()
    const away = w.edges[1] as Edge
    away.state = 'stale'
    w.cut()
    w.step()
    w.apply()
    w.step()
    w.tick(30)
    w.step()
    expect(w.status.currentWave).toBe('early')
    expect(away.runs).toBe(1)
    away.state = 'pending'
    w.apply()
    expect(away.runs).toBe(2)
  })

  it('a user pause holds everything; resume goes on from where it was', () => {
    const w = world(base, [1, 1, 1])
    w.step()
    w.cut()
    w.step()
    w.apply()
    w.edit({ paused: true })
    w.tick(600)
    w.step()
    expect(w.status).toMatchObject({ phase: 'Paused', currentWave: 'canary' })
    expect(revisions(w.status)).toEqual([2, 1, 1])
    w.cut()
    w.step()
    expect(w.status.revision).toBe(2)
    expect(w.status.pendingRevision).toBe(3)
    w.edit({ paused: false })
    expect(reasons(w.step())).toEqual(['NewRevision', 'WavePromoted'])
    expect(w.status).toMatchObject({ revision: 3, currentWave: 'canary', phase: 'Progressing' })
    expect(w.status.pendingRevision).toBeUndefined()
  })

  it('a newer revision mid-flight starts again from the first wave; reached waves keep theirs', () => {
    const w = world(base, [1, 1, 1])
    w.step()
    w.cut()
    w.step()
    w.apply()
    w.step()
    w.tick(30)
    w.step()
    expect(revisions(w.status)).toEqual([2, 2, 1])
    w.cut()
    w.step()
    expect(revisions(w.status)).toEqual([3, 2, 1])
    expect(w.status.currentWave).toBe('canary')
  })
})
