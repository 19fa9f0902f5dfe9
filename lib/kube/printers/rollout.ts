/**
 * The printer of the Rollout kind (`kubectl get rollouts`): REVISION (the revision in flight),
 * WAVE (the wave it is at; empty once complete or rolled back), PHASE, READY (the edges ready of
 * every wave's edges, each wave counted at its own revision) and AGE. Values the rollout step has
 * not written yet are null cells.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import { isRecord, items, optInt, text } from './fields.ts'
import type { Cell, Printer } from './types.ts'

function readyCell(obj: unknown): Cell {
  const waves = items(obj, 'status.waves').filter(isRecord)
  if (waves.length === 0) return null
  let ready = 0
  let edges = 0
  for (const w of waves) {
    ready += typeof w.ready === 'number' ? w.ready : 0
    edges += typeof w.edges === 'number' ? w.edges : 0
  }
  return `${ready}/${edges}`
}

export const ROLLOUT_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Revision', 'integer', 'The revision in flight (or the last one, once complete).'),
    column('Wave', 'string', 'The wave the revision in flight is at.'),
    column(
      'Phase',
      'string',
      'Progressing, WaitingForSoak, WaitingForApproval, Paused, Complete or RolledBack.'
    ),
    column('Ready', 'string', "Edges ready of every wave's edges, each wave at its own revision."),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    optInt(obj, 'status.revision') ?? null,
    text(obj, 'status.currentWave') || null,
    text(obj, 'status.phase') || null,
    readyCell(obj),
    ageOf(obj, ctx),
  ]
)

/** The Rollout printer by `group/kind`. */
export const rolloutPrinters: Record<string, Printer> = {
  'edge.kcp.io/Rollout': ROLLOUT_PRINTER,
}
