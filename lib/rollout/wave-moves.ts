/**
 * The moves of a Rollout between waves (progress.ts decides when): promoting a wave's first
 * batch (or waiting for its approval), moving on once a wave passed and soaked (its next batch
 * under maxEdges, the next wave, or completion), and a failed gate (stop, or roll the promoted
 * waves back to the completed revision). Each records its Event and the requeue at the deadline.
 */

import type { WaveStatus } from '../apis/edge-rollout.ts'
import { resolveCount } from '../apis/edge-rollout.ts'
import { raiseCut } from './edge-order.ts'
import { gateOf } from './gate.ts'
import {
  approved,
  blankWave,
  iso,
  later,
  type ProgressInput,
  type State,
} from './progress-state.ts'

/** Promotes the first batch of wave `i` to the revision in flight (or waits for its approval). */
export function startWave(s: State, inp: ProgressInput, i: number): void {
  const spec = inp.rollout.spec
  const wave = spec.waves[i]
  const w = s.waves[i]
  if (!wave || !w) return
  s.current = i
  if (wave.approval && !approved(spec, wave, s.revision)) {
    s.phase = 'WaitingForApproval'
    return
  }
  const uids = inp.waves[i]?.uids ?? []
  const batch = wave.maxEdges === undefined ? uids.length : resolveCount(wave.maxEdges, uids.length)
  // What the wave's edges not promoted yet keep: all of them held its revision, or the part
  // below an earlier cut did and the rest still held what they had before.
  const from = (w.cut ?? 1) >= 1 ? (w.revision ?? s.completed) : (w.from ?? s.completed)
  const fresh: WaveStatus = {
    ...blankWave(wave.name, s.revision),
    cut: raiseCut(s.revision, uids, 0, batch),
    from,
    promotedAt: iso(inp.nowMs),
  }
  s.waves[i] = fresh
  s.phase = 'Progressing'
  later(s, inp.nowMs + gateOf(spec.gate).deadlineSeconds * 1000, inp.nowMs)
  s.events.push({
    type: 'Normal',
    reason: 'WavePromoted',
    message: `revision ${s.revision}: wave ${wave.name} promoted (${Math.min(batch, uids.length)} of ${uids.length} edges)`,
  })
}

/** The current wave passed and soaked: its next batch, the next wave, or completion. */
export function nextAfterPass(s: State, inp: ProgressInput): void {
  const spec = inp.rollout.spec
  const i = s.current
  const wave = spec.waves[i]
  const w = s.waves[i]
  if (!wave || !w) return
  const uids = inp.waves[i]?.uids ?? []
  if ((w.cut ?? 1) < 1 && wave.maxEdges !== undefined) {
    const batch = resolveCount(wave.maxEdges, uids.length)
    s.waves[i] = {
      ...w,
      cut: raiseCut(s.revision, uids, w.cut ?? 0, batch),
      promotedAt: iso(inp.nowMs),
    }
    delete s.waves[i]?.passingSince
    s.phase = 'Progressing'
    later(s, inp.nowMs + gateOf(spec.gate).deadlineSeconds * 1000, inp.nowMs)
    return
  }
  if (i + 1 < spec.waves.length) {
    startWave(s, inp, i + 1)
    return
  }
  s.completed = s.revision
  s.current = -1
  s.phase = 'Complete'
  s.events.push({
    type: 'Normal',
    reason: 'RolloutComplete',
    message: `revision ${s.revision} completed`,
  })
}

/** Stops at a failed gate, or rolls the promoted waves back. */
export function fail(s: State, inp: ProgressInput, reason: string, message: string): void {
  const spec = inp.rollout.spec
  const i = s.current
  const w = s.waves[i]
  const name = spec.waves[i]?.name ?? ''
  if (!w) return
  s.waves[i] = {
    ...w,
    failedAt: iso(inp.nowMs),
    failedGeneration: inp.rollout.metadata.generation ?? 0,
    failureReason: reason,
    failureMessage: message,
  }
  delete s.waves[i]?.passingSince
  if ((spec.onFailure ?? 'Pause') === 'Rollback') {
    s.waves = s.waves.map((x) =>
      x.revision === s.revision ? { ...x, revision: s.completed, cut: 1, from: s.completed } : x
    )
    s.current = -1
    s.events.push({
      type: 'Warning',
      reason: 'RolledBack',
      message: `revision ${s.revision} failed at wave ${name} (${reason}: ${message}); the promoted waves are back at revision ${s.completed}`,
    })
    return
  }
  s.phase = 'Paused'
  s.events.push({
    type: 'Warning',
    reason: 'GateFailed',
    message: `revision ${s.revision} stopped at wave ${name} (${reason}: ${message}); add {wave: ${name}, revision: ${s.revision}} to spec.approvals to go on`,
  })
}
