/**
 * Server-side printing over HTTP. `negotiateTable` reads the Accept header the way kube does
 * (clauses by preference; `application/json;as=Table;v=v1;g=meta.k8s.io`, or v1beta1, asks for a
 * Table; plain JSON or a wildcard asks for the object itself; a request that only asks for
 * transformations the hub cannot make is 406 NotAcceptable) and the `includeObject` parameter
 * (None, Metadata — the default — or Object). `listTable`, `objectTable` and `tableWatchEvents`
 * render a list, one object, and each watch event (a one-row Table; column definitions only in the
 * first) with the printer of the resource being served; in the cross-workspace view a list and a
 * watch print each object's workspace first (space-column.ts).
 */
import { badRequest, notAcceptable } from '../../lib/errors.ts'
import type { Target } from '../../lib/hub/target.ts'
import type { HubSite } from '../../lib/hub/unavailable-subresources.ts'
import { printerFor } from '../../lib/kube/printers/registry.ts'
import {
  buildTable,
  INCLUDE_OBJECT_VALUES,
  type IncludeObject,
  type Table,
  type TableListMeta,
  type TableVersion,
} from '../../lib/kube/printers/table.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { ListResult } from '../../lib/store/types.ts'
import { type MediaRange, parseAccept } from './media-type.ts'
import { type SpaceColumn, withSpaceColumn } from './space-column.ts'

export type TableRequest = {
  version: TableVersion
  includeObject: IncludeObject
  /** Printed as the center prints (lib/kube/printers/edges-column.ts); else as kube does. */
  center?: boolean
}

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*'])

function tableVersion(r: MediaRange): TableVersion | undefined {
  if (r.params.as !== 'Table' || r.params.g !== 'meta.k8s.io') return undefined
  if (r.type !== 'application/json') return undefined
  return r.params.v === 'v1' || r.params.v === 'v1beta1' ? r.params.v : undefined
}

function includeObjectOf(url: URL): IncludeObject {
  const v = url.searchParams.get('includeObject')
  if (v === null || v === '') return 'Metadata'
  const found = INCLUDE_OBJECT_VALUES.find((x) => x === v)
  if (!found)
    throw badRequest(
      `includeObject: Unsupported value: "${v}": supported values: "None", "Metadata", "Object"`
    )
  return found
}

/**
 * The Table the request asks for, or undefined when it wants the objects themselves; `site`: the
 * hub serving it (the center prints its EDGES column).
 */
export function negotiateTable(req: Request, site: HubSite = 'center'): TableRequest | undefined {
  const accept = req.headers.get('accept')
  if (!accept) return undefined
  let transformOnly = false
  for (const r of parseAccept(accept)) {
    const version = tableVersion(r)
    if (version)
      return {
        version,
        includeObject: includeObjectOf(new URL(req.url)),
        ...(site === 'center' ? { center: true } : {}),
      }
    if (r.params.as === undefined && JSON_TYPES.has(r.type)) return undefined
    if (r.params.as !== undefined) transformOnly = true
  }
  if (transformOnly)
    throw notAcceptable(
      'only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1beta1;g=meta.k8s.io'
    )
  return undefined
}

type Served = Pick<Target, 'info' | 'version'>

const printerOf = (t: Served, tr: TableRequest) =>
  printerFor(t.info, t.version, tr.center ? { center: true } : {})

/**
 * A list as a Table, keeping the list's resourceVersion and paging metadata; with `spaces` (the
 * cross-workspace view, prepared for these items) each row's workspace first.
 */
export function listTable(
  t: Served,
  res: ListResult,
  tr: TableRequest & { now: Date; spaces?: SpaceColumn }
): Table {
  const meta: TableListMeta = { resourceVersion: res.resourceVersion }
  if (res.continue) meta.continue = res.continue
  if (res.remainingItemCount !== undefined) meta.remainingItemCount = res.remainingItemCount
  const table = buildTable(printerOf(t, tr), res.items, meta, tr)
  return tr.spaces ? withSpaceColumn(table, res.items, tr.spaces) : table
}

function oneRow(
  printer: ReturnType<typeof printerFor>,
  obj: KubeObject,
  opts: TableRequest & { now: Date; noHeaders?: boolean }
): Table {
  const meta: TableListMeta = {}
  if (obj.metadata.resourceVersion) meta.resourceVersion = obj.metadata.resourceVersion
  return buildTable(printer, [obj], meta, opts)
}

/** One object as a one-row Table (`kubectl get deploy NAME`). */
export function objectTable(t: Served, obj: KubeObject, tr: TableRequest, now: Date): Table {
  return oneRow(printerOf(t, tr), obj, { ...tr, now })
}

const isKubeObject = (v: unknown): v is KubeObject =>
  typeof v === 'object' && v !== null && 'metadata' in v && typeof v.metadata === 'object'

/**
 * Turns watch events into Table events: ADDED/MODIFIED/DELETED carry a one-row Table (column
 * definitions in the first only), BOOKMARK an empty Table with its resourceVersion; ERROR events
 * and anything else pass through. With `spaces`, prepared for each event's object before it is
 * sent (the watch's `prepare`), a row starts with its workspace.
 */
export function tableWatchEvents(
  t: Served,
  tr: TableRequest & { now: () => Date; spaces?: SpaceColumn }
): (event: unknown) => unknown {
  const { now, spaces } = tr
  const printer = printerOf(t, tr)
  let headersSent = false
  return (event) => {
    if (typeof event !== 'object' || event === null || !('type' in event) || !('object' in event))
      return event
    const { type, object } = event
    if (!isKubeObject(object)) return event
    if (type === 'BOOKMARK') {
      const meta: TableListMeta = { resourceVersion: object.metadata.resourceVersion ?? '' }
      return { type, object: buildTable(printer, [], meta, { ...tr, now: now(), noHeaders: true }) }
    }
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return event
    const row = oneRow(printer, object, { ...tr, now: now(), noHeaders: headersSent })
    headersSent = true
    return { type, object: spaces ? withSpaceColumn(row, [object], spaces) : row }
  }
}
