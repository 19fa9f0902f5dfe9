/**
 * Which printer serves a resource: the hand-written printer of a built-in kind (keyed by group and
 * kind), the additionalPrinterColumns of the CRD version being served, NAME/CREATED AT for the
 * built-in kinds kube prints with its default convertor (Role, ClusterRole, LimitRange, CRDs), and
 * NAME/AGE for everything else; at the center, the EDGES column on the kinds whose status is
 * aggregated over edges.
 */
import type { ResourceInfo } from '../resource-info.ts'
import { batchPrinters } from './batch.ts'
import { clusterPrinters } from './cluster.ts'
import { AGE_COLUMN, ageOf, cellPrinter, NAME_COLUMN, nameOf } from './columns.ts'
import { corePrinters } from './core.ts'
import {
  CREATED_AT_PRINTER,
  CUSTOM_RESOURCE_DEFAULT_PRINTER,
  customColumnsPrinter,
} from './custom-columns.ts'
import { edgePrinters } from './edge.ts'
import { summaryPrinters } from './edge-summary.ts'
import { EDGES_COLUMN_KINDS, withEdgesColumn } from './edges-column.ts'
import { EVENT_PRINTER } from './event.ts'
import { POD_PRINTER } from './pod.ts'
import { rolloutPrinters } from './rollout.ts'
import { TOKEN_PRINTER } from './token.ts'
import type { Printer } from './types.ts'
import { workloadPrinters } from './workloads.ts'

/** NAME and AGE: what a kind without a printer of its own shows. */
export const NAME_AGE_PRINTER: Printer = cellPrinter([NAME_COLUMN, AGE_COLUMN], (obj, ctx) => [
  nameOf(obj),
  ageOf(obj, ctx),
])

const BY_KIND: Record<string, Printer> = {
  '/Pod': POD_PRINTER,
  '/Event': EVENT_PRINTER,
  'events.k8s.io/Event': EVENT_PRINTER,
  '/LimitRange': CREATED_AT_PRINTER,
  'rbac.authorization.k8s.io/Role': CREATED_AT_PRINTER,
  'rbac.authorization.k8s.io/ClusterRole': CREATED_AT_PRINTER,
  'apiextensions.k8s.io/CustomResourceDefinition': CREATED_AT_PRINTER,
  'auth.edgeplane.io/Token': TOKEN_PRINTER,
  ...corePrinters,
  ...workloadPrinters,
  ...batchPrinters,
  ...clusterPrinters,
  ...edgePrinters,
  ...summaryPrinters,
  ...rolloutPrinters,
}

/** The center's printers of the kinds whose status is aggregated over edges: with EDGES. */
const AT_CENTER: Record<string, Printer> = Object.fromEntries(
  [...EDGES_COLUMN_KINDS].map((k) => [k, withEdgesColumn(BY_KIND[k] ?? NAME_AGE_PRINTER)])
)

/**
 * The printer for `info` served at `version`; `center`: as the center serves it (the kinds whose
 * status is aggregated over edges get the EDGES column: edges-column.ts).
 */
export function printerFor(
  info: Pick<ResourceInfo, 'group' | 'kind' | 'source' | 'printerColumns'>,
  version: string,
  opts: { center?: boolean } = {}
): Printer {
  if (info.source === 'crd') {
    const columns = info.printerColumns?.[version]
    return columns && columns.length > 0
      ? customColumnsPrinter(columns)
      : CUSTOM_RESOURCE_DEFAULT_PRINTER
  }
  const key = `${info.group}/${info.kind}`
  return (opts.center ? AT_CENTER[key] : undefined) ?? BY_KIND[key] ?? NAME_AGE_PRINTER
}
