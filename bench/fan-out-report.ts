/**
 * The fan-out phase in the report: the derived figures (requests and body writes per (object,
 * destination), translate throughput and its ratio to raw PutItem), the verdicts against the issue's
 * targets (complete in under 10 s; at most one full body written per (object, destination) change),
 * the report lines, and the `fanOut` section of the JSON summary. Pure.
 */
import type { FanOutPhase, FanOutResults } from './fan-out-types.ts'
import { ratio, round, type Summary } from './stats.ts'
import { fmt } from './table.ts'

export const TARGET_COMPLETE_MS = 10_000
export const TARGET_BODIES_PER_CHANGE = 1

export type FanOutFigures = {
  pairs: number
  requestsPerPair: number
  requestsPerMailbox: number
  /** Body PutItems sent (stored or refused by their condition) per (object, destination). */
  bodyPutsPerPair: number
  bodiesStoredPerPair: number
  /** (object, destination) pairs per second of translate time. */
  pairsPerSec: number
  vsRawPutItem: number
  completeMet: boolean
  bodiesMet: boolean
  change: {
    requestsPerDestination: number
    bodyPutsPerChange: number
    bodiesStoredPerChange: number
    bodiesMet: boolean
  }
}

/** The derived figures and verdicts. Body verdicts count every body PutItem sent. */
export function fanOutFigures(f: FanOutResults): FanOutFigures {
  const pairs = f.objects * f.targets
  const pairsPerSec =
    f.initial.translateMs > 0 ? (pairs * 1000) / f.initial.translateMs : Number.NaN
  const bodyPutsPerPair = f.initial.bodies.attempted / pairs
  const bodyPutsPerChange = f.change.bodies.attempted / f.targets
  return {
    pairs,
    requestsPerPair: f.initial.requestsTotal / pairs,
    requestsPerMailbox: f.initial.requestsTotal / f.targets,
    bodyPutsPerPair,
    bodiesStoredPerPair: f.initial.bodies.stored / pairs,
    pairsPerSec,
    vsRawPutItem: ratio(pairsPerSec, f.rawPutPerSec),
    completeMet: f.initial.completeMs < TARGET_COMPLETE_MS,
    bodiesMet: bodyPutsPerPair <= TARGET_BODIES_PER_CHANGE,
    change: {
      requestsPerDestination: f.change.requestsTotal / f.targets,
      bodyPutsPerChange,
      bodiesStoredPerChange: f.change.bodies.stored / f.targets,
      bodiesMet: bodyPutsPerChange <= TARGET_BODIES_PER_CHANGE,
    },
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
/** A small per-unit figure with enough digits to read 1/N. */
const small = (x: number) => (Number.isFinite(x) ? x.toPrecision(3) : '-')

/** "BatchGetItem 10, PutItem 1000": store requests by operation name. */
export function byOperation(requests: Record<string, number>): string {
  return Object.keys(requests)
    .sort()
    .map((op) => `${op} ${requests[op]}`)
    .join(', ')
}

function phaseLines(p: FanOutPhase): string[] {
  const k = p.translateKeyMs
  return [
    `    where ${sec(p.whereMs)}; translate ${sec(p.translateMs)} in ${p.translateCalls} hook calls, ${p.rounds} round(s), ${p.retried} mailbox runs repeated`,
    `    translate per mailbox (hub log, ${k.count} runs): p50 ${fmt(k.p50, 0)} ms, p90 ${fmt(k.p90, 0)} ms, max ${fmt(k.max, 0)} ms`,
  ]
}

/** The report section; `workers` is the raw baseline's concurrency. */
export function renderFanOut(f: FanOutResults, workers: number): string {
  const q = fanOutFigures(f)
  const { initial: i, change: c } = f
  const s = f.setup
  return [
    `5. Fan-out: one EdgePlacement selecting ${f.objects} ConfigMaps (~${f.itemBytes} B) -> ${f.targets} SyncTargets`,
    `   where and translate driven through /hooks as the relay would (translate: ${f.batch} keys per call, ${f.calls} calls in flight)`,
    `  setup (not timed): SyncTargets + Locations ${sec(s.createMs)}, mailbox step ${sec(s.mailboxMs)}, first translate ${sec(s.translateMs)}`,
    `  fan-out ${f.objects} objects → ${f.targets} targets: complete in ${sec(i.completeMs)} (target < ${TARGET_COMPLETE_MS / 1000} s: ${verdict(q.completeMet)})`,
    ...phaseLines(i),
    `    DynamoDB requests: ${i.requestsTotal} = ${small(q.requestsPerPair)} per (object, destination), ${fmt(q.requestsPerMailbox, 2)} per mailbox (${byOperation(i.requests)})`,
    `    bodies: ${i.bodies.stored} written, ${i.bodies.attempted} PutItems sent = ${small(q.bodyPutsPerPair)} per (object, destination) (target ≤ ${TARGET_BODIES_PER_CHANGE}: ${verdict(q.bodiesMet)})`,
    `    translate throughput: ${fmt(q.pairsPerSec, 0)} (object, destination)/s = ${fmt(q.vsRawPutItem, 2)}x raw PutItem (${fmt(f.rawPutPerSec)} items/s, ${workers} workers)`,
    `  change of 1 ConfigMap → ${f.targets} targets: complete in ${sec(c.completeMs)}`,
    ...phaseLines(c),
    `    DynamoDB requests: ${c.requestsTotal} = ${fmt(q.change.requestsPerDestination, 2)} per destination (${byOperation(c.requests)})`,
    `    bodies: ${c.bodies.stored} written, ${c.bodies.attempted} PutItems sent = ${small(q.change.bodyPutsPerChange)} per (object, destination) change (target ≤ ${TARGET_BODIES_PER_CHANGE}: ${verdict(q.change.bodiesMet)})`,
  ].join('\n')
}

function summaryJson(s: Summary) {
  return { count: s.count, p50: round(s.p50), p90: round(s.p90), max: round(s.max) }
}

function phaseJson(p: FanOutPhase) {
  return {
    completeMs: round(p.completeMs),
    whereMs: round(p.whereMs),
    translateMs: round(p.translateMs),
    translateCalls: p.translateCalls,
    rounds: p.rounds,
    retried: p.retried,
    requests: p.requests,
    requestsTotal: p.requestsTotal,
    bodies: p.bodies,
    translateKeyMs: summaryJson(p.translateKeyMs),
    whereKeyMs: summaryJson(p.whereKeyMs),
  }
}

/** The `fanOut` section of the JSON summary (NaN as null). */
export function fanOutJson(f: FanOutResults): Record<string, unknown> {
  const q = fanOutFigures(f)
  return {
    targets: f.targets,
    objects: f.objects,
    itemBytes: f.itemBytes,
    batch: f.batch,
    calls: f.calls,
    pairs: q.pairs,
    setupMs: {
      create: round(f.setup.createMs),
      mailbox: round(f.setup.mailboxMs),
      translate: round(f.setup.translateMs),
    },
    initial: {
      ...phaseJson(f.initial),
      requestsPerPair: round(q.requestsPerPair, 5),
      requestsPerMailbox: round(q.requestsPerMailbox, 3),
      bodyPutsPerPair: round(q.bodyPutsPerPair, 6),
      bodiesStoredPerPair: round(q.bodiesStoredPerPair, 6),
      pairsPerSec: round(q.pairsPerSec),
      vsRawPutItem: round(q.vsRawPutItem, 3),
    },
    change: {
      ...phaseJson(f.change),
      requestsPerDestination: round(q.change.requestsPerDestination, 3),
      bodyPutsPerChange: round(q.change.bodyPutsPerChange, 6),
      bodiesStoredPerChange: round(q.change.bodiesStoredPerChange, 6),
    },
    rawPutPerSec: round(f.rawPutPerSec),
    targetsMet: {
      completeUnder10s: q.completeMet,
      bodiesPerChange: q.bodiesMet && q.change.bodiesMet,
    },
  }
}
