/**
 * Printers of the kcp and edge kinds the hub serves itself: Workspace (TYPE, PHASE, URL, as kcp
 * prints them), SyncTarget (READY and REASON of its Ready condition and the agent's VERSION, as
 * `kubectl get nodes` prints a Node's readiness and kubelet version: whether its agent heartbeats
 * by the staleness rule, not the age of a status time the center refreshes only every five
 * minutes), SyncerConfig (LAST HEARTBEAT, the age of its syncer heartbeat field), Location
 * (RESOURCE, the kind of instances it groups), EdgePlacement (LOCATIONS matched, READY and REASON
 * of its Ready condition), SinglePlacementSlice (DESTINATIONS) and Customizer (REPLACEMENTS), each
 * with AGE. Values not reported yet are null cells.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import { since } from './duration.ts'
import { dig, isRecord, items, optInt, text, textOr } from './fields.ts'
import type { Cell, Printer } from './types.ts'

const heartbeatColumn = column(
  'Last Heartbeat',
  'string',
  'How long ago the syncer last reported a heartbeat.'
)

function heartbeat(obj: unknown, now: Date): Cell {
  const t = text(obj, 'status.lastSyncerHeartbeatTime')
  return t ? since(t, now) : null
}

export const WORKSPACE_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Type', 'string', 'Type of the workspace'),
    column(
      'Phase',
      'string',
      'The current phase (e.g. Scheduling, Initializing, Ready, Terminating)'
    ),
    column('URL', 'string', 'URL to access the workspace'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    text(obj, 'spec.type.name') ?? null,
    text(obj, 'status.phase') ?? null,
    text(obj, 'spec.URL') || text(obj, 'status.URL') || null,
    ageOf(obj, ctx),
  ]
)

function readyOf(obj: unknown): Record<string, unknown> | undefined {
  const c = items(obj, 'status.conditions').find((c) => isRecord(c) && c.type === 'Ready')
  return isRecord(c) ? c : undefined
}

function readyCondition(obj: unknown): Cell {
  const status = readyOf(obj)?.status
  return typeof status === 'string' ? status : null
}

function readyReason(obj: unknown): Cell {
  const reason = readyOf(obj)?.reason
  return typeof reason === 'string' && reason ? reason : null
}

const readyColumn = (what: string) => column('Ready', 'string', `The status of ${what}.`)
const reasonColumn = (what: string) =>
  column('Reason', 'string', `The reason of ${what}: why it is not True, or how it is.`)

export const SYNC_TARGET_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    readyColumn(
      'the Ready condition: True while the edge agent heartbeats, Unknown once it was silent for the staleness threshold (3 minutes by default) or was never heard'
    ),
    reasonColumn('the Ready condition (Heartbeating, Stale, NeverSeen)'),
    column('Version', 'string', "The edge agent's version, as its last heartbeat told it."),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    readyCondition(obj),
    readyReason(obj),
    text(obj, 'status.agentVersion') || null,
    ageOf(obj, ctx),
  ]
)

export const SYNCER_CONFIG_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, heartbeatColumn, AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), heartbeat(obj, ctx.now), ageOf(obj, ctx)]
)

function locationResource(loc: unknown): Cell {
  const resource = textOr(loc, 'spec.resource.resource')
  if (!resource) return null
  const group = textOr(loc, 'spec.resource.group')
  return group ? `${resource}.${group}` : resource
}

export const LOCATION_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Resource', 'string', 'The kind of the instances in this location.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), locationResource(obj), ageOf(obj, ctx)]
)

export const EDGE_PLACEMENT_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Locations', 'integer', 'The number of Locations this placement currently matches.'),
    readyColumn('the Ready condition'),
    reasonColumn(
      'the Ready condition (AllReady, EdgeProblems, StaleDestinations, Propagating, ...)'
    ),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    optInt(obj, 'status.matchingLocationCount') ?? null,
    readyCondition(obj),
    readyReason(obj),
    ageOf(obj, ctx),
  ]
)

export const SINGLE_PLACEMENT_SLICE_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Destinations', 'integer', 'The number of resolved destinations.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), items(obj, 'destinations').length, ageOf(obj, ctx)]
)

export const CUSTOMIZER_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Replacements', 'integer', 'The number of replacements.'), AGE_COLUMN],
  (obj, ctx) => [
    nameOf(obj),
    Array.isArray(dig(obj, 'replacements')) ? items(obj, 'replacements').length : 0,
    ageOf(obj, ctx),
  ]
)

/** The kcp and edge printers by `group/kind`. */
export const edgePrinters: Record<string, Printer> = {
  'tenancy.kcp.io/Workspace': WORKSPACE_PRINTER,
  'edge.kcp.io/SyncTarget': SYNC_TARGET_PRINTER,
  'edge.kcp.io/SyncerConfig': SYNCER_CONFIG_PRINTER,
  'edge.kcp.io/Location': LOCATION_PRINTER,
  'edge.kcp.io/EdgePlacement': EDGE_PLACEMENT_PRINTER,
  'edge.kcp.io/SinglePlacementSlice': SINGLE_PLACEMENT_SLICE_PRINTER,
  'edge.kcp.io/Customizer': CUSTOMIZER_PRINTER,
}
