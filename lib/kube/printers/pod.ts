/**
 * The Pod printer, following kube's rules for the columns people read most: READY counts ready
 * containers (sidecars — init containers with restartPolicy Always — included) over all of them;
 * STATUS starts from the phase or status.reason, becomes `Init:<reason>` or `Init:i/n` while init
 * containers run, then the reason of a waiting or terminated container (CrashLoopBackOff,
 * Completed, Error, `ExitCode:n`), `Running`/`NotReady` when a completed container still has a
 * running sibling, and `Terminating` once deleted; RESTARTS adds "(5m ago)" after the last restart.
 * Wide columns: IP, NODE, NOMINATED NODE, READINESS GATES. A pod with no status reads Pending.
 */
import { AGE_COLUMN, column, NAME_COLUMN } from './columns.ts'
import { humanDuration, parseTime, since } from './duration.ts'
import { dig, int, isRecord, items, type JsonRecord, text, textOr } from './fields.ts'
import type { PrintContext, PrintedRow, Printer, RowCondition } from './types.ts'

export const POD_COLUMNS = [
  NAME_COLUMN,
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column(
    'Restarts',
    'string',
    'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'
  ),
  AGE_COLUMN,
  column(
    'IP',
    'string',
    'IP address allocated to the pod. Routable at least within the cluster.',
    1
  ),
  column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node.', 1),
  column('Nominated Node', 'string', 'The node the scheduler nominated for this pod.', 1),
  column('Readiness Gates', 'string', 'Readiness gates of this pod, true over total.', 1),
]

type Tally = {
  ready: number
  total: number
  reason: string
  restarts: number
  lastRestart: number
  initializing: boolean
}

const records = (v: unknown, path: string): JsonRecord[] => items(v, path).filter(isRecord)

const conditionTrue = (pod: unknown, type: string) =>
  records(pod, 'status.conditions').some((c) => c.type === type && c.status === 'True')

/** Finish time of the container's last termination, 0 when it never restarted. */
const lastTermination = (status: JsonRecord) =>
  parseTime(dig(status, 'lastState.terminated.finishedAt')) ?? 0

function terminatedReason(status: JsonRecord, prefix: string): string {
  const reason = text(status, 'state.terminated.reason')
  if (reason) return `${prefix}${reason}`
  const signal = int(status, 'state.terminated.signal')
  if (signal !== 0) return `${prefix}Signal:${signal}`
  return `${prefix}ExitCode:${int(status, 'state.terminated.exitCode')}`
}

/** Walks the init containers until the first that is neither done nor a started sidecar. */
function tallyInit(pod: unknown, t: Tally): { restarts: number; lastRestart: number } {
  const specs = records(pod, 'spec.initContainers')
  const sidecars = new Set(specs.filter((c) => c.restartPolicy === 'Always').map((c) => c.name))
  t.total += sidecars.size
  const side = { restarts: 0, lastRestart: 0 }
  for (const [i, s] of records(pod, 'status.initContainerStatuses').entries()) {
    const restarts = int(s, 'restartCount')
    t.restarts += restarts
    t.lastRestart = Math.max(t.lastRestart, lastTermination(s))
    const sidecar = sidecars.has(s.name)
    if (sidecar) {
      side.restarts += restarts
      side.lastRestart = Math.max(side.lastRestart, lastTermination(s))
    }
    const terminated = isRecord(dig(s, 'state.terminated'))
    if (terminated && int(s, 'state.terminated.exitCode') === 0) continue
    if (sidecar && s.started === true) {
      if (s.ready === true) t.ready++
      continue
    }
    const waiting = textOr(s, 'state.waiting.reason')
    if (terminated) t.reason = terminatedReason(s, 'Init:')
    else if (waiting && waiting !== 'PodInitializing') t.reason = `Init:${waiting}`
    else t.reason = `Init:${i}/${specs.length}`
    t.initializing = true
    break
  }
  return side
}

function tallyContainers(pod: unknown, t: Tally): void {
  let hasRunning = false
  const statuses = records(pod, 'status.containerStatuses')
  for (let i = statuses.length - 1; i >= 0; i--) {
    const s = statuses[i] as JsonRecord
    t.restarts += int(s, 'restartCount')
    t.lastRestart = Math.max(t.lastRestart, lastTermination(s))
    const waiting = textOr(s, 'state.waiting.reason')
    if (waiting) t.reason = waiting
    else if (isRecord(dig(s, 'state.terminated'))) t.reason = terminatedReason(s, '')
    else if (s.ready === true && isRecord(dig(s, 'state.running'))) {
      hasRunning = true
      t.ready++
    }
  }
  if (t.reason === 'Completed' && hasRunning)
    t.reason = conditionTrue(pod, 'Ready') ? 'Running' : 'NotReady'
}

function tally(pod: unknown): Tally {
  const phase = textOr(pod, 'status.phase', 'Pending')
  const t: Tally = {
    ready: 0,
    total: items(pod, 'spec.containers').length,
    reason: text(pod, 'status.reason') || phase,
    restarts: 0,
    lastRestart: 0,
    initializing: false,
  }
  const gated = records(pod, 'status.conditions').some(
    (c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'
  )
  if (gated) t.reason = 'SchedulingGated'
  const side = tallyInit(pod, t)
  if (!t.initializing || conditionTrue(pod, 'Initialized')) {
    t.restarts = side.restarts
    t.lastRestart = side.lastRestart
    tallyContainers(pod, t)
  }
  if (text(pod, 'metadata.deletionTimestamp')) {
    if (text(pod, 'status.reason') === 'NodeLost') t.reason = 'Unknown'
    else if (phase !== 'Succeeded' && phase !== 'Failed') t.reason = 'Terminating'
  }
  return t
}

function readinessGates(pod: unknown): string {
  const gates = records(pod, 'spec.readinessGates')
  if (gates.length === 0) return '<none>'
  const conditions = records(pod, 'status.conditions')
  const passed = gates.filter(
    (g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True'
  ).length
  return `${passed}/${gates.length}`
}

function podIP(pod: unknown): string {
  const first = records(pod, 'status.podIPs')[0]
  return (first && textOr(first, 'ip')) || textOr(pod, 'status.podIP') || '<none>'
}

function rowConditions(pod: unknown): RowCondition[] | undefined {
  const phase = text(pod, 'status.phase')
  if (phase === 'Succeeded')
    return [
      {
        type: 'Completed',
        status: 'True',
        reason: phase,
        message: 'The pod has completed successfully.',
      },
    ]
  if (phase === 'Failed')
    return [{ type: 'Completed', status: 'True', reason: phase, message: 'The pod failed.' }]
  return undefined
}

function podRow(pod: unknown, ctx: PrintContext): PrintedRow {
  const t = tally(pod)
  const restarts =
    t.restarts !== 0 && t.lastRestart > 0
      ? `${t.restarts} (${humanDuration(ctx.now.getTime() - t.lastRestart)} ago)`
      : String(t.restarts)
  const row: PrintedRow = {
    cells: [
      textOr(pod, 'metadata.name'),
      `${t.ready}/${t.total}`,
      t.reason,
      restarts,
      since(dig(pod, 'metadata.creationTimestamp'), ctx.now),
      podIP(pod),
      textOr(pod, 'spec.nodeName') || '<none>',
      textOr(pod, 'status.nominatedNodeName') || '<none>',
      readinessGates(pod),
    ],
  }
  const conditions = rowConditions(pod)
  if (conditions) row.conditions = conditions
  return row
}

export const POD_PRINTER: Printer = { columns: POD_COLUMNS, row: podRow }
