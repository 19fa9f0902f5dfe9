/**
 * Edge problems aggregated for Events: the failed (object, destination) pairs of one placement
 * (a problem its agent reported — ApplyFailed, ForeignObject, DeleteFailed — or a failure read
 * from the reported status — ProgressDeadlineExceeded, JobFailed, PodFailed) grouped per
 * (object, reason), so a thousand edges failing one object the same way make one Event that
 * counts them and names the first few. Each group says what its Event should say: the
 * destinations in name order, the count, and the first destination's own message. At most
 * MAX_OBJECT_EVENTS groups get an Event about their object; the rest are folded, per reason, into
 * one Event about the EdgePlacement that counts the objects and names the first few. Pure.
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

/** Object Events per placement; further (object, reason) groups fold into the placement's. */
export const MAX_OBJECT_EVENTS = 50
const NAMED = 5
const MESSAGE_CHARS = 300

type Group = { first: FailedPair; destinations: string[]; messages: Map<string, string> }

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function names(list: readonly string[]): string {
  const shown = list.slice(0, NAMED).join(', ')
  return list.length > NAMED ? `${shown} and ${list.length - NAMED} more` : shown
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

function objectMessage(g: Group, placement: string, destinations: number): string {
  const n = g.destinations.length
  const first = g.destinations.find((d) => g.messages.has(d))
  const said = first ? `. ${first}: ${(g.messages.get(first) ?? '').slice(0, MESSAGE_CHARS)}` : ''
  const of = `${n} of ${destinations} destination${destinations === 1 ? '' : 's'}`
  return `${of} of EdgePlacement ${placement} report ${g.first.reason}: ${names(g.destinations)}${said}`
}

/** The Events a placement's failed pairs call for, in a stable order. */
export function problemEvents(
  pairs: readonly FailedPair[],
  placement: { involved: Involved; destinations: number }
): ProblemEvent[] {
  const groups = groupsOf(pairs)
  const name = placement.involved.name
  const out: ProblemEvent[] = groups.slice(0, MAX_OBJECT_EVENTS).map((g) => ({
    involved: g.first.object,
    reason: g.first.reason,
    message: objectMessage(g, name, placement.destinations),
  }))
  const rest = new Map<string, Group[]>()
  for (const g of groups.slice(MAX_OBJECT_EVENTS))
    rest.set(g.first.reason, [...(rest.get(g.first.reason) ?? []), g])
  for (const [reason, list] of [...rest].sort(([a], [b]) => cmp(a, b))) {
    const edges = new Set(list.flatMap((g) => g.destinations))
    out.push({
      involved: placement.involved,
      reason,
      message: `${list.length} more object${list.length === 1 ? '' : 's'} report ${reason} at ${edges.size} of ${placement.destinations} destinations: ${names(list.map((g) => g.first.label))}`,
    })
  }
  return out
}

/** Failed pairs per reason, for the Ready condition's message. */
export function failedByReason(pairs: readonly FailedPair[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of pairs) out.set(p.reason, (out.get(p.reason) ?? 0) + 1)
  return out
}
