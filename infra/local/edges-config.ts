/**
 * The simulated edge clusters `npm start` runs, from EDGEPLANE_EDGES: a comma-separated list of
 * `name[:key=value]...` (`florin:env=prod,guilder:env=prod:extended=si`), the default when the
 * variable is unset; set and empty means none. Names are DNS labels (they name a node, a table, a
 * kubeconfig context, a SyncTarget and a Location); keys and values follow the kube label rules.
 * `loc-name` and `id` are set by edgeplane itself (`loc-name=<name>` on both objects, `id=<name>`
 * on the SyncTarget, which the Location's instanceSelector matches), so giving them is an error.
 * Every problem is reported at once, naming the entry.
 */
import { labelKeyProblem, labelValueProblem } from '../../lib/kube/label-selector.ts'
import { dnsLabelErrors } from '../../lib/kube/names.ts'

export type EdgeSpec = {
  name: string
  labels: Record<string, string>
  /** The failures the edge is told to have (EDGEPLANE_EDGE_FAULTS, edge-faults-config.ts). */
  faults?: string
}

export const DEFAULT_EDGES = 'florin:env=prod,guilder:env=prod:extended=si'
/** The inventory space the simulated edges are registered in. */
export const EDGE_INVENTORY = 'root:imw-1'
const RESERVED = ['loc-name', 'id']

function parseEntry(entry: string, problems: string[]): EdgeSpec | undefined {
  const [name = '', ...pairs] = entry.split(':')
  const errors = dnsLabelErrors(name)
  if (errors.length) {
    problems.push(`edge name "${name}": ${errors.join('; ')}`)
    return undefined
  }
  const labels: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq < 0) {
      problems.push(`edge ${name}: "${pair}" is not key=value`)
      continue
    }
    const key = pair.slice(0, eq)
    const value = pair.slice(eq + 1)
    const problem = RESERVED.includes(key)
      ? `is set by edgeplane (loc-name=${name}, id=${name})`
      : labelKeyProblem(key)
        ? `key ${labelKeyProblem(key)}`
        : labelValueProblem(value)
          ? `value ${labelValueProblem(value)}`
          : key in labels
            ? 'is given twice'
            : undefined
    if (problem) problems.push(`edge ${name}: label ${key}: ${problem}`)
    else labels[key] = value
  }
  return { name, labels }
}

/** The edges of EDGEPLANE_EDGES (undefined: the default); throws one error naming every problem. */
export function parseEdges(value: string | undefined): EdgeSpec[] {
  const text = (value ?? DEFAULT_EDGES).trim()
  if (text === '') return []
  const problems: string[] = []
  const edges: EdgeSpec[] = []
  for (const raw of text.split(',')) {
    const entry = raw.trim()
    if (entry === '') {
      problems.push('an empty entry (two commas in a row, or a trailing comma)')
      continue
    }
    const edge = parseEntry(entry, problems)
    if (!edge) continue
    if (edges.some((e) => e.name === edge.name)) problems.push(`edge ${edge.name} is named twice`)
    else edges.push(edge)
  }
  if (problems.length) throw new Error(`EDGEPLANE_EDGES: ${problems.join('; ')}`)
  return edges
}

/** The labels both the SyncTarget and the Location carry. */
export const edgeLabels = (e: EdgeSpec): Record<string, string> => ({
  ...e.labels,
  'loc-name': e.name,
})
