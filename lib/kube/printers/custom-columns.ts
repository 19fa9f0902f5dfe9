/**
 * Printers driven by column lists rather than code: a CRD version's additionalPrinterColumns
 * (NAME first, then each column's JSONPath evaluated on the object, keeping the first value as
 * kube does; type, format and priority as declared), the default for a custom resource without
 * columns (NAME, AGE), and the default kube gives built-in kinds it has no printer for (NAME,
 * CREATED AT as an RFC 3339 time). Cells convert like kube's: `date` values become ages, `string`
 * values print Go-style when they are not strings, mismatched values become null.
 */
import type { PrinterColumn } from '../resource-info.ts'
import type { KubeObject } from '../types.ts'
import { CREATION_DESCRIPTION, column, NAME_COLUMN } from './columns.ts'
import { humanDuration, parseTime } from './duration.ts'
import { isRecord } from './fields.ts'
import { evaluateJsonPath, parseJsonPath } from './jsonpath.ts'
import type { Cell, ColumnType, Printer, TableColumn } from './types.ts'

const TYPES: ColumnType[] = ['string', 'integer', 'number', 'boolean', 'date']

/** Roughly Go's fmt.Fprint of a decoded JSON value (what kube's jsonpath prints). */
function goText(v: unknown): string {
  if (v === null || v === undefined) return '<nil>'
  if (Array.isArray(v)) return `[${v.map(goText).join(' ')}]`
  if (isRecord(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goText(v[k])}`)
      .join(' ')}]`
  return String(v)
}

function dateCell(v: unknown, now: Date): Cell {
  if (typeof v !== 'string') return null
  const t = parseTime(v)
  return t === undefined ? '<invalid>' : humanDuration(now.getTime() - t)
}

/** A JSONPath result as a cell of `type`. */
export function toCell(type: ColumnType, v: unknown, now: Date): Cell {
  if (v === undefined || v === null) return null
  switch (type) {
    case 'string':
      return typeof v === 'string' ? v : goText(v)
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null
    case 'number':
      return typeof v === 'number' ? v : null
    case 'boolean':
      return typeof v === 'boolean' ? v : null
    default:
      return dateCell(v, now)
  }
}

function definition(c: PrinterColumn): TableColumn {
  const type = TYPES.find((t) => t === c.type) ?? 'string'
  const description =
    c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`
  return { ...column(c.name, type, description, c.priority ?? 0), format: c.format ?? '' }
}

/** The printer of a CRD version with these additionalPrinterColumns. */
export function customColumnsPrinter(columns: PrinterColumn[]): Printer {
  const defs = columns.map(definition)
  const paths = columns.map((c) => parseJsonPath(c.jsonPath))
  return {
    columns: [NAME_COLUMN, ...defs],
    row: (obj, ctx) => ({
      cells: [
        obj.metadata.name ?? '',
        ...defs.map((d, i) => {
          const steps = paths[i]
          return steps ? toCell(d.type, evaluateJsonPath(steps, obj)[0], ctx.now) : null
        }),
      ],
    }),
  }
}

/** A custom resource without printer columns: NAME and AGE (kube's server default). */
export const CUSTOM_RESOURCE_DEFAULT_PRINTER = customColumnsPrinter([
  {
    name: 'Age',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: CREATION_DESCRIPTION,
  },
])

function createdAt(obj: KubeObject): string {
  const t = parseTime(obj.metadata.creationTimestamp)
  return t === undefined
    ? '0001-01-01T00:00:00Z'
    : new Date(t).toISOString().replace(/\.\d+Z$/, 'Z')
}

/** kube's default for a built-in kind with no printer (Role, ClusterRole, CRD): NAME, CREATED AT. */
export const CREATED_AT_PRINTER: Printer = {
  columns: [NAME_COLUMN, column('Created At', 'date', CREATION_DESCRIPTION)],
  row: (obj) => ({ cells: [obj.metadata.name ?? '', createdAt(obj)] }),
}
