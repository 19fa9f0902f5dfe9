/**
 * Printers of the status summarization kinds: Summarizer (SUBJECT, the resource it summarizes or
 * `*`; GROUP BY, the names of its group keys; AGGREGATIONS, `name=Type` pairs) and StatusSummary
 * (OBJECTS summarized, COPIES, REPORTED, STALE and GROUPS, null until the summarize step wrote
 * them), each with AGE.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import { dig, isRecord, items, optInt, text } from './fields.ts'
import type { Cell, Printer } from './types.ts'

function subject(obj: unknown): Cell {
  const resource = text(obj, 'spec.subject.resource')
  if (!resource) return '*'
  const group = text(obj, 'spec.subject.group')
  return group ? `${resource}.${group}` : resource
}

const joined = (list: unknown[], cell: (e: Record<string, unknown>) => string): Cell => {
  const parts = list.filter(isRecord).map(cell)
  return parts.length > 0 ? parts.join(',') : '<none>'
}

export const SUMMARIZER_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Subject', 'string', 'The resource of the objects summarized; * for all.'),
    column('Group By', 'string', 'The names of the group keys.'),
    column('Aggregations', 'string', 'The aggregations, as name=Type.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    subject(obj),
    joined(items(obj, 'spec.groupBy'), (g) => String(g.name ?? '')),
    joined(items(obj, 'spec.aggregations'), (a) => `${a.name ?? ''}=${a.type ?? ''}`),
    ageOf(obj, ctx),
  ]
)

const count = (obj: unknown, field: string): Cell => optInt(obj, `summary.${field}`) ?? null

export const STATUS_SUMMARY_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Objects', 'integer', 'Placed objects summarized.'),
    column('Copies', 'integer', 'Their (object, destination) pairs.'),
    column('Reported', 'integer', 'Pairs with a current report from a live agent.'),
    column('Stale', 'integer', 'Pairs whose agent sent no heartbeat within the threshold.'),
    column('Groups', 'integer', 'The number of groups.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    count(obj, 'objects'),
    count(obj, 'copies'),
    count(obj, 'reported'),
    count(obj, 'stale'),
    Array.isArray(dig(obj, 'summary.groups')) ? items(obj, 'summary.groups').length : null,
    ageOf(obj, ctx),
  ]
)

/** The summarization printers by `group/kind`. */
export const summaryPrinters: Record<string, Printer> = {
  'edge.kcp.io/Summarizer': SUMMARIZER_PRINTER,
  'edge.kcp.io/StatusSummary': STATUS_SUMMARY_PRINTER,
}
