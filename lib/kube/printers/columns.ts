/**
 * Column definitions shared by the printers: the NAME column (format `name`, first in every table
 * but Event's), AGE (a string cell such as "5m", computed on the server), the wide CONTAINERS and
 * IMAGES pair, a constructor for the rest, and `cellPrinter` for kinds whose rows are plain cells.
 * Descriptions follow kube's where kube has one.
 */
import type { KubeObject } from '../types.ts'
import { since } from './duration.ts'
import type { Cell, ColumnType, PrintContext, Printer, TableColumn } from './types.ts'

export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'

export const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'

/** A column; `priority` 1 makes it a `-o wide` column. */
export function column(
  name: string,
  type: ColumnType,
  description: string,
  priority = 0
): TableColumn {
  return { name, type, format: '', description, priority }
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: NAME_DESCRIPTION,
  priority: 0,
}

export const AGE_COLUMN = column('Age', 'string', CREATION_DESCRIPTION)

export const CONTAINERS_COLUMN = column(
  'Containers',
  'string',
  'Names of each container in the template.',
  1
)

export const IMAGES_COLUMN = column(
  'Images',
  'string',
  'Images referenced by each container in the template.',
  1
)

export const SELECTOR_DESCRIPTION =
  'Label query over the objects this one manages. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'

/** A printer whose rows are plain cells (no row conditions). */
export function cellPrinter(
  columns: TableColumn[],
  cells: (obj: KubeObject, ctx: PrintContext) => Cell[]
): Printer {
  return { columns, row: (obj, ctx) => ({ cells: cells(obj, ctx) }) }
}

export const nameOf = (obj: KubeObject): string => obj.metadata.name ?? ''

/** The AGE cell of an object. */
export const ageOf = (obj: KubeObject, ctx: PrintContext): string =>
  since(obj.metadata.creationTimestamp, ctx.now)
