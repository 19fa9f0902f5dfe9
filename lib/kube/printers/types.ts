/**
 * Plain types of server-side printing: a column definition as `meta.k8s.io/v1` Table carries it,
 * the values a cell may hold, and a printer — the fixed columns of one kind plus a function that
 * turns one object into one row of cells (one cell per column, wide columns included: the client
 * hides priority-1 columns unless asked for `-o wide`). Row conditions (a finished Pod) ride along.
 */
import type { KubeObject } from '../types.ts'

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date'

export type TableColumn = {
  name: string
  type: ColumnType
  format: string
  description: string
  /** 0: always shown; 1 and up: only with `-o wide`. */
  priority: number
}

/** A cell: kube sends strings, int64s, float64s, booleans, or null for a missing value. */
export type Cell = string | number | boolean | null

export type RowCondition = { type: 'Completed'; status: 'True'; reason: string; message: string }

export type PrintedRow = { cells: Cell[]; conditions?: RowCondition[] }

/** What a row builder may need besides the object: the server's clock. */
export type PrintContext = { now: Date }

export type Printer = {
  columns: TableColumn[]
  row(obj: KubeObject, ctx: PrintContext): PrintedRow
}
