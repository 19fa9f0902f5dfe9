/**
 * The Event printer (core `v1` and `events.k8s.io/v1`, whose fields it reads under either name):
 * LAST SEEN, TYPE, REASON, OBJECT ("kind/name" lowercased) and MESSAGE, with the wide SUBOBJECT,
 * SOURCE, FIRST SEEN, COUNT and NAME columns. Times fall back the way kube's do — first seen to
 * eventTime, last seen to first seen, a series overriding both last seen and count — and a
 * singleton event counts 1.
 */

import type { KubeObject } from '../types.ts'
import { column, NAME_COLUMN } from './columns.ts'
import { since } from './duration.ts'
import { dig, isRecord, optInt, textOr } from './fields.ts'
import type { Cell, PrintContext, Printer } from './types.ts'

export const EVENT_COLUMNS = [
  column(
    'Last Seen',
    'string',
    'The time at which the most recent occurrence of this event was recorded.'
  ),
  column('Type', 'string', 'Type of this event (Normal, Warning).'),
  column(
    'Reason',
    'string',
    'A short, machine understandable string that gives the reason for this event.'
  ),
  column('Object', 'string', 'The object that this event is about.'),
  column('Subobject', 'string', 'The field of the object the event is about.', 1),
  column('Source', 'string', 'The component reporting this event.', 1),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded.', 1),
  column('Count', 'string', 'The number of times this event has occurred.', 1),
  { ...NAME_COLUMN, priority: 1 },
]

/** The first of `paths` that holds a non-empty string. */
function first(obj: unknown, ...paths: string[]): string {
  for (const p of paths) {
    const v = textOr(obj, p)
    if (v) return v
  }
  return ''
}

function times(ev: unknown, now: Date): { first: string; last: string; count: number } {
  const firstTs = first(ev, 'firstTimestamp', 'deprecatedFirstTimestamp')
  const firstSeen = since(firstTs || first(ev, 'eventTime'), now)
  const lastTs = first(ev, 'lastTimestamp', 'deprecatedLastTimestamp')
  const series = dig(ev, 'series')
  if (isRecord(series))
    return {
      first: firstSeen,
      last: since(series.lastObservedTime, now),
      count: optInt(series, 'count') ?? 0,
    }
  const count = optInt(ev, 'count') ?? optInt(ev, 'deprecatedCount') ?? 0
  return { first: firstSeen, last: lastTs ? since(lastTs, now) : firstSeen, count: count || 1 }
}

function source(ev: unknown): string {
  const component = first(
    ev,
    'source.component',
    'deprecatedSource.component',
    'reportingController'
  )
  const host = first(ev, 'source.host', 'deprecatedSource.host', 'reportingInstance')
  return host ? `${component}, ${host}` : component
}

function eventCells(ev: KubeObject, ctx: PrintContext): Cell[] {
  const t = times(ev, ctx.now)
  const involved = isRecord(ev.involvedObject) ? ev.involvedObject : dig(ev, 'regarding')
  const kind = textOr(involved, 'kind').toLowerCase()
  const name = textOr(involved, 'name')
  return [
    t.last,
    textOr(ev, 'type'),
    textOr(ev, 'reason'),
    name ? `${kind}/${name}` : kind,
    textOr(involved, 'fieldPath'),
    source(ev),
    first(ev, 'message', 'note').trim(),
    t.first,
    t.count,
    ev.metadata.name ?? '',
  ]
}

export const EVENT_PRINTER: Printer = {
  columns: EVENT_COLUMNS,
  row: (ev, ctx) => ({ cells: eventCells(ev, ctx) }),
}
