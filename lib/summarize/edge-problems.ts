/**
 * Edge problems aggregated for Events: the failed (object, destination) pairs of one placement
 * (a problem its agent reported — ApplyFailed, ForeignObject, DeleteFailed — or a failure read
 * from the reported status — ProgressDeadlineExceeded, JobFailed, PodFailed) grouped per
 * (object, reason), so a thousand edges failing one object the same way make one Event that
 * counts them and names the first few. Two kinds of Events, so that each is found where kube
 * users look: per reason, one Event about the EdgePlacement itself (`kubectl describe
 * edgeplacement` lists it), counting every failing object and edge and naming the first few with
 * the first edge's own message — it stays when the objects go, with the placement; and per
 * (object, reason), for at most MAX_OBJECT_EVENTS groups, one about the object (`kubectl describe`
 * of the object, `kubectl get events -n` its namespace), counting its destinations and naming the
 * first ones. The placement's come first, so a run's write cap reaches them first. Pure.
 */

/** The object an Event is about (core/v1 ObjectReference fields). */
export type Involved = {
  apiVersion: string
  kind: string
  name: string
  namespace?: string
  uid?: string
}

export type FailedPair = {
  /** Orders and groups objects (group/resource/namespace/name). */
  objectKey: string
  /** How the object reads in a message (`configmaps shop/cfg`). */
  label: string
  object: Involved
  destination: string
  reason: string
  message?: string
}

export type ProblemEvent = { involved: Involved; reason: string; message: string }

/** Object Events per placement; further (object, reason) groups are in the placement's only. */
export const MAX_OBJECT_EVENTS = 50
const NAMED = 5
/** Destinations named per object in the placement's Event. */
const EDGES_PER_OBJECT = 3
const MESSAGE_CHARS = 300

type Group = { first: FailedPair; destinations: string[]; messages: Map<string, string> }

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function names(list: readonly string[], n = NAMED): string {
  const shown = list.slice(0, n).join(', ')
  return list.length > n ? `${shown} and ${list.length - n} more` : shown
}

function groupsOf(pairs: readonly FailedPair[]): Group[] {
  const groups = new Map<string, Group>()
  for (const p of pairs) {
    const k = `${p.objectKey}\u0000${p.reason}`
    const g: Group = groups.get(k) ?? { first: p, destinations: [], messages: new Map() }
    g.destinations.push(p.destination)
    if (p.message) g.messages.set(p.destination, p.message)
    groups.set(k, g)
  }
  const out = [...groups.values()]
  for (const g of out) g.destinations.sort(cmp)
  return out.sort(
    (a, b) => cmp(a.first.objectKey, b.first.objectKey) || cmp(a.first.reason, b.first.reason)
  )
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const firstSaid = (g: Group) => g.destinations.find((d) => g.messages.has(d))

const saidBy = (g: Group, label?: string) => {
  const first = firstSaid(g)
  if (!first) return ''
  const where = label ? `${label} at ${first}` : first
  return `. ${where}: ${(g.messages.get(first) ?? '').slice(0, MESSAGE_CHARS)}`
}

function objectMessage(g: Group, placement: string, destinations: number): string {
  const n = g.destinations.length
  const of = `${n} of ${plural(destinations, 'destination')}`
  return `${of} of EdgePlacement ${placement} report ${g.first.reason}: ${names(g.destinations)}${saidBy(g)}`
}

/** The placement's own Event for one reason: every object failing so, and where. */
function placementMessage(reason: string, list: readonly Group[], destinations: number): string {
  const edges = new Set(list.flatMap((g) => g.destinations))
  const objects = list.map((g) => `${g.first.label} at ${names(g.destinations, EDGES_PER_OBJECT)}`)
  const shown = objects.slice(0, NAMED).join('; ')
  const more = objects.length > NAMED ? ` and ${objects.length - NAMED} more` : ''
  const said = list.find((g) => firstSaid(g) !== undefined)
  const verb = list.length === 1 ? 'reports' : 'report'
  return (
    `${plural(list.length, 'object')} ${verb} ${reason} at ${edges.size} of ${plural(destinations, 'destination')}: ` +
    `${shown}${more}${said ? saidBy(said, said.first.label) : ''}`
  )
}

/** The Events a placement's failed pairs call for, in a stable order: the placement's first. */
export function problemEvents(
  pairs: readonly FailedPair[],
  placement: { involved: Involved; destinations: number }
): ProblemEvent[] {
  const groups = groupsOf(pairs)
  const byReason = new Map<string, Group[]>()
  for (const g of groups) {
    const list = byReason.get(g.first.reason)
    if (list) list.push(g)
    else byReason.set(g.first.reason, [g])
  }
  const own: ProblemEvent[] = [...byReason]
    .sort(([a], [b]) => cmp(a, b))
    .map(([reason, list]) => ({
      involved: placement.involved,
      reason,
      message: placementMessage(reason, list, placement.destinations),
    }))
  const name = placement.involved.name
  const objects: ProblemEvent[] = groups.slice(0, MAX_OBJECT_EVENTS).map((g) => ({
    involved: g.first.object,
    reason: g.first.reason,
    message: objectMessage(g, name, placement.destinations),
  }))
  return [...own, ...objects]
}

/** Failed pairs per reason, for the Ready condition's message. */
export function failedByReason(pairs: readonly FailedPair[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of pairs) out.set(p.reason, (out.get(p.reason) ?? 0) + 1)
  return out
}
