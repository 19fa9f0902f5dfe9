/**
 * The WORKSPACE column of the cross-workspace view (`/clusters/*`): every object there carries
 * its space's id in the `kcp.io/cluster` annotation, as kcp's objects carry their logical cluster,
 * and a Table for kubectl prints the space's path in a first column of its own, so
 * `kubectl --server .../clusters/* get deployments -A` says which space each row is in. Paths are
 * read once per id for a list or a watch (`prepare`, through the API's space caches), before the
 * rows that need them are printed; the id stands in for a space that is gone.
 */
import { resolveSpaceCached } from '../../lib/hub/space-cache.ts'
import type { Table } from '../../lib/kube/printers/table.ts'
import type { TableColumn } from '../../lib/kube/printers/types.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../lib/kube/types.ts'
import type { KvStore } from '../../lib/store/types.ts'

export const SPACE_COLUMN: TableColumn = {
  name: 'Workspace',
  type: 'string',
  format: '',
  description: 'The workspace the object is in (its kcp.io/cluster annotation, as a path).',
  priority: 0,
}

export type SpaceColumn = {
  /** Reads the paths of the spaces of `objects` that are not known yet. */
  prepare(objects: readonly KubeObject[]): Promise<void>
  /** The path of the space of `obj` (prepared before), its id when unknown. */
  cell(obj: KubeObject): string
}

const idOf = (obj: KubeObject) => obj.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

export function spaceColumn(kv: KvStore, now: () => Date): SpaceColumn {
  const paths = new Map<string, string>()
  return {
    async prepare(objects) {
      const missing = [...new Set(objects.map(idOf))].filter((id) => id && !paths.has(id))
      await Promise.all(
        missing.map(async (id) => {
          const space = await resolveSpaceCached(kv, id, now().getTime())
          paths.set(id, space?.path ?? id)
        })
      )
    },
    cell(obj) {
      const id = idOf(obj)
      return paths.get(id) ?? id
    },
  }
}

/** `table` (printed from `objects`, in order) with the column in front. */
export function withSpaceColumn(
  table: Table,
  objects: readonly KubeObject[],
  column: SpaceColumn
): Table {
  return {
    ...table,
    columnDefinitions:
      table.columnDefinitions.length > 0 ? [SPACE_COLUMN, ...table.columnDefinitions] : [],
    rows: table.rows.map((row, i) => {
      const obj = objects[i]
      return { ...row, cells: [obj ? column.cell(obj) : '', ...row.cells] }
    }),
  }
}
