/**
 * Builds `meta.k8s.io` Table objects (v1, or v1beta1 for older clients) from printed rows: the
 * column definitions (left out when `noHeaders`, as kube does for every watch event after the
 * first), the list metadata, and one row per object carrying its cells, any row conditions and —
 * per `includeObject` — nothing, the object's metadata as a PartialObjectMetadata (the default),
 * or the whole object.
 */
import type { KubeObject } from '../types.ts'
import type { Cell, Printer, RowCondition, TableColumn } from './types.ts'

export type TableVersion = 'v1' | 'v1beta1'
export type IncludeObject = 'None' | 'Metadata' | 'Object'
export const INCLUDE_OBJECT_VALUES: IncludeObject[] = ['None', 'Metadata', 'Object']

export type TableListMeta = {
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
}

export type TableRow = { cells: Cell[]; conditions?: RowCondition[]; object?: unknown }

export type Table = {
  kind: 'Table'
  apiVersion: string
  metadata: TableListMeta
  columnDefinitions: TableColumn[]
  rows: TableRow[]
}

export type TableOptions = {
  version: TableVersion
  includeObject: IncludeObject
  now: Date
  /** Leave out the column definitions (watch events after the first). */
  noHeaders?: boolean
}

function rowObject(obj: KubeObject, opts: TableOptions): unknown {
  if (opts.includeObject === 'Object') return obj
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: obj.metadata,
  }
}

/** A Table of `objects` printed by `printer`. */
export function buildTable(
  printer: Printer,
  objects: KubeObject[],
  meta: TableListMeta,
  opts: TableOptions
): Table {
  const rows = objects.map((obj) => {
    const printed = printer.row(obj, { now: opts.now })
    const row: TableRow = { cells: printed.cells }
    if (printed.conditions) row.conditions = printed.conditions
    if (opts.includeObject !== 'None') row.object = rowObject(obj, opts)
    return row
  })
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: meta,
    columnDefinitions: opts.noHeaders ? [] : printer.columns,
    rows,
  }
}
