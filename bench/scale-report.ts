/**
 * The scale run's report (scale.ts): a text table per size and for the npm start run, and the JSON
 * summary whose `goals` map holds, per figure of the ten-thousand-edge issue, the value measured,
 * its target and the edge count it was measured at (value null when that part was left out). A
 * figure is read at the largest size measured. Pure.
 */
import { byOperation } from './fan-out-report.ts'
import type { Goal } from './goal.ts'
import { renderHeld } from './held-idle-report.ts'
import { renderNpmStartEdges } from './npm-start-edges-report.ts'
import { renderRollout, rolloutCosts } from './rollout-report.ts'
import type { ScaleResults } from './scale.ts'
import { renderScaleBudgets } from './scale-budgets.ts'
import { npmStartGoals, perMailbox, registerMs, scaleGoals } from './scale-goals.ts'
import type { TimedPhase } from './scale-npm-start.ts'
import { round } from './stats.ts'
import { renderStorm } from './storm-report.ts'

export { npmStartGoals, perMailbox, scaleGoals } from './scale-goals.ts'
export type { Goal }

const seconds = (ms: number) => round(ms / 1000, 2)

/** "3 failed: 2 × 503 ServiceUnavailable, 1 × fetch failed", or "0 failed". */
function failedText(h: {
  failed: number
  skipped: number
  failures: Record<string, number>
}): string {
  const why = Object.entries(h.failures)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} × ${reason}`)
  const failed = why.length > 0 ? `${h.failed} failed: ${why.join(', ')}` : `${h.failed} failed`
  return `${failed}; ${h.skipped} not sent, their agent still waiting`
}

/**
 * What one operation costs, read at the largest size (the inputs of docs/SCALING.md): per
 * changed mailbox (the change row: every mailbox's content changes) and per mailbox of the first
 * fan-out, the store requests and the CPU of the hub (this process) and of the store (dynalite's
 * process) apart; per idle poll, the store requests, the center's CPU (the hub's part apart) and
 * the HTTP bytes; per heartbeat, the store requests (writes apart) and CPU beyond the polls, and
 * the same for an agent's first heartbeat (which writes its SyncTarget's status); a
 * full desired answer's body; registration per edge.
 */
export function operationCosts(s: ScaleResults) {
  const row = s.rows[s.rows.length - 1]
  const fleet = s.idle?.fleet
  const per = (total: number) => (row ? round(total / row.targets, 3) : null)
  return {
    edges: row?.targets ?? null,
    changedMailbox: {
      storeRequests: row ? per(row.change.requestsTotal) : null,
      cpuMs: row ? per(row.change.cpuMs) : null,
      storeCpuMs: row ? per(row.change.storeCpuMs) : null,
    },
    placedMailbox: {
      storeRequests: row ? per(row.initial.requestsTotal) : null,
      cpuMs: row ? per(row.initial.cpuMs) : null,
      storeCpuMs: row ? per(row.initial.storeCpuMs) : null,
      objects: row?.objects ?? null,
    },
    registerMsPerEdge: row ? per(registerMs(row)) : null,
    registerRequestsPerEdge: row?.setup.requests
      ? {
          objects: per(row.setup.requests.objects),
          mailbox: per(row.setup.requests.mailboxes),
          firstTranslate: per(row.setup.requests.translate),
        }
      : null,
    idlePoll: fleet
      ? {
          storeReads: round(fleet.readsPerPoll, 4),
          storeWrites: round(fleet.writesPerPoll, 4),
          cpuMs: round(fleet.cpuMsPerPoll, 3),
          hubCpuMs: round(fleet.hubCpuMsPerPoll, 3),
          requestBytes: Math.round(fleet.bytesPerPoll.request),
          responseBytes: Math.round(fleet.bytesPerPoll.response),
        }
      : null,
    heartbeat: fleet
      ? {
          storeRequests: round(fleet.withHeartbeats.requestsPerHeartbeat, 2),
          storeWrites: round(fleet.withHeartbeats.writesPerHeartbeat, 2),
          cpuMs: round(fleet.withHeartbeats.cpuMsPerHeartbeat, 3),
          first: {
            storeRequests: round(fleet.withHeartbeats.firstBeat.requestsPerHeartbeat, 2),
            storeWrites: round(fleet.withHeartbeats.firstBeat.writesPerHeartbeat, 2),
            cpuMs: round(fleet.withHeartbeats.firstBeat.cpuMsPerHeartbeat, 3),
          },
        }
      : null,
    desiredAnswerBytes: s.idle?.answerBytes ?? null,
    rollout: rolloutCosts(s.rollout),
  }
}

const unchanged = (p: { runs: Record<string, number>; unchangedRuns: Record<string, number> }) =>
  Object.entries(p.runs)
    .map(([step, n]) => `${step} ${n} (${p.unchangedRuns[step] ?? 0} unchanged)`)
    .join(', ')

const workerRuns = (p: TimedPhase) =>
  Object.entries(p.runs)
    .map(
      ([step, r]) =>
        `${step} ${r.runs} (${r.unchanged} unchanged, ${r.failed} failed${r.resync ? `; ${r.resync} by the resync` : ''})`
    )
    .join(', ')

/** The propagation rows: plain polls, then held ones (timed beside the held fleet when it ran). */
function renderPropagation(s: ScaleResults): string[] {
  const others =
    s.idle?.held && s.propagation?.held?.length
      ? ` while ${s.idle.held.agents} others hold their polls`
      : ''
  return [...(s.propagation?.propagation ?? []), ...(s.propagation?.held ?? [])].map(
    (p) =>
      `propagation, ${p.agents} agents ${p.holdSeconds ? `holding ${p.holdSeconds} s polls (interval ${p.intervalMs} ms)` : `polling every ${p.intervalMs} ms`}${others}:` +
      ` p50 ${round(p.latencyMs.p50)} ms, p99 ${round(p.latencyMs.p99)} ms, missing ${p.missing}`
  )
}

export function renderScale(s: ScaleResults, pollIntervalMs: number): string {
  const lines = ['edgeplane scale figures', '']
  for (const r of s.rows) {
    const c = perMailbox(r)
    lines.push(
      `in process, ${r.targets} edges, ${r.objects} ConfigMaps:`,
      `  register  ${seconds(registerMs(r))} s (objects ${seconds(r.setup.createMs)} s, mailboxes ${seconds(r.setup.mailboxMs)} s)`,
      `  fan-out   ${seconds(r.initial.completeMs)} s, ${round(c.fanout, 2)} requests/mailbox; runs: ${unchanged(r.initial)}`,
      `  change    ${seconds(r.change.completeMs)} s, ${round(c.change, 2)} requests/mailbox; runs: ${unchanged(r.change)}`,
      `  translate per mailbox p50 ${round(r.initial.translateKeyMs.p50)} ms`,
      `  store requests: fan-out ${byOperation(r.initial.requests)}; change ${byOperation(r.change.requests)}`
    )
  }
  const f = s.idle?.fleet
  if (f)
    lines.push(
      `idle fleet, ${f.agents} agents every ${f.intervalMs} ms: ${f.polls} polls (${f.failed} failed, ${f.skipped} not sent, their agent still waiting),` +
        ` ${round(f.readsPerPoll, 4)} reads and ${round(f.writesPerPoll, 4)} writes per poll,` +
        ` center CPU ${round(f.centerCpuFraction * 100, 1)} % of the cores (hub ${round(f.hubCpuFraction * 100, 1)} %), poll p99 ${round(f.pollLatencyMs.p99)} ms;` +
        ` with a heartbeat per agent every ${f.withHeartbeats.periodMs} ms (${f.withHeartbeats.heartbeats} sent, ${failedText(f.withHeartbeats)}):` +
        ` center CPU ${round(f.withHeartbeats.centerCpuFraction * 100, 1)} % (hub ${round(f.withHeartbeats.hubCpuFraction * 100, 1)} %),` +
        ` ${round(f.withHeartbeats.requestsPerHeartbeat, 2)} store requests (${round(f.withHeartbeats.writesPerHeartbeat, 2)} writes) and ${round(f.withHeartbeats.cpuMsPerHeartbeat, 2)} ms CPU per heartbeat;` +
        ` an agent's first heartbeat (${f.withHeartbeats.firstBeat.heartbeats} sent, ${failedText(f.withHeartbeats.firstBeat)}): ${round(f.withHeartbeats.firstBeat.requestsPerHeartbeat, 2)} store requests (${round(f.withHeartbeats.firstBeat.writesPerHeartbeat, 2)} writes) and ${round(f.withHeartbeats.firstBeat.cpuMsPerHeartbeat, 2)} ms CPU`
    )
  lines.push(...renderHeld(s.idle))
  lines.push(...renderPropagation(s))
  lines.push(...renderRollout(s.rollout), ...renderStorm(s.storm))
  const n = s.npmStart
  if (n)
    lines.push(
      `through npm start, ${n.edges} edges, ${n.objects} ConfigMaps:`,
      `  register  ${seconds(n.register.allMs)} s (p50 ${seconds(n.register.p50Ms)} s; writes ${seconds(n.register.writesMs)} s); runs: ${workerRuns(n.register)}`,
      `            CPU ${phaseCpu(n.register.cpuMs, n.edges)} per edge`,
      `  fan-out   ${seconds(n.place.allMs)} s (p50 ${seconds(n.place.p50Ms)} s); runs: ${workerRuns(n.place)}`,
      `            CPU ${phaseCpu(n.place.cpuMs, n.edges)} per mailbox`,
      `  change    ${seconds(n.change.allMs)} s (p50 ${seconds(n.change.p50Ms)} s); runs: ${workerRuns(n.change)}`,
      `            CPU ${phaseCpu(n.change.cpuMs, n.edges)} per mailbox`,
      '  dashboard (each view 5 times, one after another):',
      ...(n.dashboard ?? []).map(
        (d) =>
          `    ${d.view.padEnd(28)} p50 ${Math.round(d.p50Ms)} ms, slowest ${Math.round(d.maxMs)} ms, ${Math.round(d.bytes / 1024)} KiB`
      )
    )
  lines.push(...renderNpmStartEdges(s.npmStartEdges))
  const c = operationCosts(s)
  lines.push(
    '',
    `per operation, at ${c.edges ?? '-'} edges (CPU of the hub's process + dynalite's):`,
    `  changed mailbox  ${c.changedMailbox.storeRequests ?? '-'} store requests, ${c.changedMailbox.cpuMs ?? '-'} + ${c.changedMailbox.storeCpuMs ?? '-'} ms CPU`,
    `  placed mailbox   ${c.placedMailbox.storeRequests ?? '-'} store requests, ${c.placedMailbox.cpuMs ?? '-'} + ${c.placedMailbox.storeCpuMs ?? '-'} ms CPU (${c.placedMailbox.objects ?? '-'} objects)`,
    `  registered edge  ${c.registerMsPerEdge ?? '-'} ms of wall time${registerRequests(c.registerRequestsPerEdge)}`
  )
  if (c.idlePoll)
    lines.push(
      `  idle poll        ${c.idlePoll.storeReads} reads, ${c.idlePoll.storeWrites} writes, ${c.idlePoll.cpuMs} ms CPU (hub ${c.idlePoll.hubCpuMs}), ${c.idlePoll.requestBytes} + ${c.idlePoll.responseBytes} bytes`
    )
  if (c.heartbeat)
    lines.push(
      `  heartbeat        ${c.heartbeat.storeRequests} store requests (${c.heartbeat.storeWrites} writes), ${c.heartbeat.cpuMs} ms CPU; an agent's first ${c.heartbeat.first.storeRequests} (${c.heartbeat.first.storeWrites} writes), ${c.heartbeat.first.cpuMs} ms`
    )
  if (c.desiredAnswerBytes)
    lines.push(
      `  desired answer   ${c.desiredAnswerBytes.identity} bytes (${c.desiredAnswerBytes.gzip} gzip-compressed)`
    )
  lines.push('', ...renderScaleBudgets(s.budgets))
  lines.push('', 'goals (value / target @ edges):')
  const goals = { ...scaleGoals(s, pollIntervalMs) }
  for (const [k, g] of Object.entries(goals))
    lines.push(`  ${k.padEnd(26)} ${g.value ?? '-'} / ${g.target} @ ${g.edges ?? '-'}`)
  for (const [k, g] of Object.entries(npmStartGoals(s) ?? {}))
    lines.push(`  npm start ${k.padEnd(16)} ${g.value ?? '-'} / ${g.target} @ ${g.edges ?? '-'}`)
  return lines.join('\n')
}

/** `; store requests: objects 7, mailbox 13, first translate 2.1`, or nothing when not counted. */
function registerRequests(
  r: { objects: number | null; mailbox: number | null; firstTranslate: number | null } | null
): string {
  if (!r) return ''
  return `; store requests: objects ${r.objects}, mailbox ${r.mailbox}, first translate ${r.firstTranslate}`
}

/** A phase's CPU by process, each as ms per unit: `worker 61.2, stack 30.1, relay 9 ms`. */
function phaseCpu(cpuMs: Record<string, number>, units: number): string {
  const parts = Object.entries(cpuMs)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([part, ms]) => `${part} ${round(ms / Math.max(1, units), 2)}`)
  return parts.length > 0 ? `${parts.join(', ')} ms` : '- (no /proc)'
}

/** The last line of a scale run. */
export function scaleJson(s: ScaleResults, pollIntervalMs: number, durationMs: number) {
  return {
    benchmark: 'edgeplane-scale',
    goals: scaleGoals(s, pollIntervalMs),
    npmStart: npmStartGoals(s),
    rows: s.rows.map((r) => ({
      edges: r.targets,
      objects: r.objects,
      registerMs: Math.round(registerMs(r)),
      fanoutMs: Math.round(r.initial.completeMs),
      changeMs: Math.round(r.change.completeMs),
      requestsPerMailbox: perMailbox(r),
      requests: { fanout: r.initial.requests, change: r.change.requests },
      runs: { fanout: r.initial.runs, change: r.change.runs },
      unchangedRuns: { fanout: r.initial.unchangedRuns, change: r.change.unchangedRuns },
    })),
    idleFleet: s.idle?.fleet ?? null,
    heldIdleFleet: s.idle?.held ?? null,
    storm: s.storm,
    costs: operationCosts(s),
    npmStartRuns: s.npmStart
      ? {
          register: s.npmStart.register.runs,
          place: s.npmStart.place.runs,
          change: s.npmStart.change.runs,
        }
      : null,
    npmStartCpuMs: s.npmStart
      ? {
          register: s.npmStart.register.cpuMs,
          place: s.npmStart.place.cpuMs,
          change: s.npmStart.change.cpuMs,
        }
      : null,
    npmStartDashboard: s.npmStart?.dashboard ?? null,
    durationMs: Math.round(durationMs),
  }
}
