/**
 * The EDGES column the center adds to the printers of the kinds whose status the summarize step
 * aggregates over several edges (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, Pod): how
 * many of the object's selected edges its status is from, and how many are stale — the
 * annotation `edge.kcp.io/status-from` (`2/3 (1 stale)`; `1/1` for the singleton return), read as
 * is, `<none>` for an object placed nowhere. Put just before AGE. Edge clusters print kube's own
 * columns only.
 */
import { STATUS_FROM_ANNOTATION } from '../../placement/annotations.ts'
import { column } from './columns.ts'
import type { Printer } from './types.ts'

export const EDGES_COLUMN = column(
  'Edges',
  'string',
  'How many of the selected edges the status is from, and how many of them are stale (the edge.kcp.io/status-from annotation).'
)

/** The `group/kind`s whose center printers carry the column. */
export const EDGES_COLUMN_KINDS: ReadonlySet<string> = new Set([
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  '/Pod',
])

/** `printer` with the EDGES column before its AGE column (or last when it has none). */
export function withEdgesColumn(printer: Printer): Printer {
  const age = printer.columns.findIndex((c) => c.name === 'Age')
  const at = age === -1 ? printer.columns.length : age
  const columns = [...printer.columns]
  columns.splice(at, 0, EDGES_COLUMN)
  return {
    columns,
    row(obj, ctx) {
      const printed = printer.row(obj, ctx)
      const cells = [...printed.cells]
      cells.splice(at, 0, obj.metadata.annotations?.[STATUS_FROM_ANNOTATION] ?? '<none>')
      return { ...printed, cells }
    },
  }
}
