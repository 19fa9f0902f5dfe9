/**
 * The held idle fleet's figures (held-idle.ts measures them): per idle edge-hour of the measured
 * window the Worker requests (holds opened and heartbeats sent in it, from the fleet's record of
 * every request's start), the center's CPU and store requests, what is held per held poll, and
 * the fleet-wide change — each held poll's first answer after the write, and the bound.
 */
import type { HeldFleetResult } from './held-fleet-run.ts'
import { scaled } from './read-classes.ts'
import { summarize } from './stats.ts'

const HOUR_MS = 3_600_000
/** The least time the fleet-wide change's answers are waited for. */
const ANSWER_LIMIT_MS = 300_000

/**
 * The CPU of one answer, ms, from the CPU spent while `answers` were sent one after another over
 * `wallMs`, less what the held fleet around them costs meanwhile (`backgroundPerMs`: its idle
 * window's CPU per ms of wall time — at 10,000 edges its heartbeats alone are more than the
 * answers); at least a hundredth of a ms, so a noisy window never makes the bound vanish.
 */
export const perAnswer = (
  cpuMs: number,
  backgroundPerMs: number,
  wallMs: number,
  answers: number
) => Math.max(0.01, (cpuMs - backgroundPerMs * wallMs) / Math.max(1, answers))

/** The bound this machine sets on answering every held poll: one full answer's CPU × edges ÷ cores. */
export const answerBoundMs = (fullAnswerCpuMs: number, agents: number, cores: number) =>
  (fullAnswerCpuMs * agents) / Math.max(1, cores)

/**
 * How long the change's answers are waited for: 300 s, or twice the bound when that is longer, so
 * a last answer within the goal (1.5× the bound) is always seen, and one somewhat past it measured.
 */
export const answerWaitMs = (boundMs: number) => Math.max(ANSWER_LIMIT_MS, Math.ceil(2 * boundMs))

export type HeldIdle = {
  agents: number
  cores: number
  holdSeconds: number
  windowMs: number
  /** Worker requests per edge-hour in the window: holds opened, heartbeats, and both. */
  holdsPerEdgeHour: number
  beatsPerEdgeHour: number
  requestsPerEdgeHour: number
  /** Center CPU (hub and store) per edge-hour, ms, and over wall time per core. */
  cpuMsPerEdgeHour: number
  centerCpuFraction: number
  readsPerEdgeHour: number
  writesPerEdgeHour: number
  /** Store reads per edge-hour by `<operation> <partition class>` (lib/store/request-class.ts). */
  readsByClass: Record<string, number>
  /** Holds and heartbeats that failed inside the measured window (the rest: the change's). */
  windowFailed: { holds: number; beats: number }
  /** Holds the center did not apply, and failures over the whole run (both 0 for a clean run). */
  notHeld: number
  failed: number
  beatsFailed: number
  failures: Record<string, number>
  /** What the hub (this process) and the fleet hold per held poll. */
  perHeldPoll: {
    hubRssBytes: number
    hubHeapBytes: number
    hubOpenFiles: number
    fleetOpenFiles: number
  }
  openFiles: { hubBefore: number; hubHeld: number; fleetPeak: number; limit: number }
  /** The fleet-wide change: from the source write to every held poll's answer. */
  change: {
    answered: number
    translateMs: number
    answerMs: ReturnType<typeof summarize>
    allAnsweredMs: number
    /** One full answer's center CPU, ms (the hub's share of it), and the bound: × edges ÷ cores. */
    fullAnswerCpuMs: number
    fullAnswerHubCpuMs: number
    boundMs: number
    /** The center's CPU from the write until every poll was answered, per held poll, ms. */
    cpuMsPerAnswer: { hub: number; store: number }
  }
}

export type Measured = {
  agents: number
  holdSeconds: number
  w0: number
  w1: number
  cpuMs: number
  cores: number
  reads: number
  writes: number
  /** The window's store reads by `<operation> <partition class>`. */
  readClasses: Record<string, number>
  windowFailed: HeldIdle['windowFailed']
  changeAt: number
  translateMs: number
  fullAnswerCpuMs: number
  fullAnswerHubCpuMs: number
  /** The center's CPU over the change (the steps, the answers, the heartbeats meanwhile), ms. */
  changeCpu: { hubMs: number; storeMs: number }
  perHeldPoll: HeldIdle['perHeldPoll']
  files: { hubBefore: number; hubHeld: number; limit: number }
}

/** The window's and the change's figures from the fleet's record. */
export function figures(r: HeldFleetResult, m: Measured): HeldIdle {
  const inWindow = (xs: number[]) => xs.filter((t) => t >= m.w0 && t < m.w1).length
  const edgeHours = (m.agents * (m.w1 - m.w0)) / HOUR_MS
  const per = (n: number) => n / Math.max(1e-9, edgeHours)
  const holds = inWindow(r.holdStarts)
  const beats = inWindow(r.beatStarts)
  const answerMs = r.answers.flatMap((at) => {
    const first = at.find((t) => t >= m.changeAt)
    return first === undefined ? [] : [first - m.changeAt]
  })
  return {
    agents: m.agents,
    cores: m.cores,
    holdSeconds: m.holdSeconds,
    windowMs: m.w1 - m.w0,
    holdsPerEdgeHour: per(holds),
    beatsPerEdgeHour: per(beats),
    requestsPerEdgeHour: per(holds + beats),
    cpuMsPerEdgeHour: per(m.cpuMs),
    centerCpuFraction: m.cpuMs / (m.w1 - m.w0) / m.cores,
    readsPerEdgeHour: per(m.reads),
    writesPerEdgeHour: per(m.writes),
    readsByClass: scaled(m.readClasses, per(1)),
    windowFailed: m.windowFailed,
    notHeld: r.notHeld,
    failed: r.failed,
    beatsFailed: r.beatsFailed,
    failures: r.failures,
    perHeldPoll: m.perHeldPoll,
    openFiles: {
      ...m.files,
      fleetPeak: r.peakOpenFiles,
    },
    change: {
      answered: answerMs.length,
      translateMs: m.translateMs,
      answerMs: summarize(answerMs),
      allAnsweredMs: answerMs.length === m.agents ? Math.max(0, ...answerMs) : Number.NaN,
      fullAnswerCpuMs: m.fullAnswerCpuMs,
      fullAnswerHubCpuMs: m.fullAnswerHubCpuMs,
      boundMs: answerBoundMs(m.fullAnswerCpuMs, m.agents, m.cores),
      cpuMsPerAnswer: {
        hub: m.changeCpu.hubMs / Math.max(1, m.agents),
        store: m.changeCpu.storeMs / Math.max(1, m.agents),
      },
    },
  }
}
