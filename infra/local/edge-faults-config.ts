/**
 * The failures `npm start`'s simulated edges are told to have, from EDGEPLANE_EDGE_FAULTS: a
 * semicolon-separated list of `<edge>=<faults>`, each `<faults>` the simulated edge's `--faults`
 * text (lib/edge-sim/faults.ts: a comma-separated list of `image-pull`, `crash-loop` or
 * `job-fail`, each optionally `@<image glob>`), e.g.
 * `florin=crash-loop@*:bad;guilder=image-pull@shop:v3,job-fail`. Unset or empty: no edge fails.
 * An edge named here must be one of EDGEPLANE_EDGES; every problem is reported at once.
 */
import { faultsText, parseFaults } from '../../lib/edge-sim/faults.ts'
import type { EdgeSpec } from './edges-config.ts'

/** `edges` with their faults' text from `value`; throws one error naming every problem. */
export function withEdgeFaults(edges: EdgeSpec[], value: string | undefined): EdgeSpec[] {
  const text = (value ?? '').trim()
  if (text === '') return edges
  const problems: string[] = []
  const faults = new Map<string, string>()
  for (const raw of text.split(';')) {
    const entry = raw.trim()
    const eq = entry.indexOf('=')
    const name = eq < 0 ? entry : entry.slice(0, eq)
    const parsed = parseFaults(eq < 0 ? '' : entry.slice(eq + 1))
    if (eq < 0) problems.push(`"${entry}" is not <edge>=<faults>`)
    else if (!edges.some((e) => e.name === name))
      problems.push(`edge ${name} is not one of EDGEPLANE_EDGES`)
    else if (faults.has(name)) problems.push(`edge ${name} is named twice`)
    else if ('error' in parsed) problems.push(`edge ${name}: ${parsed.error}`)
    else if (parsed.length === 0) problems.push(`edge ${name}: no fault given`)
    else faults.set(name, faultsText(parsed))
  }
  if (problems.length) throw new Error(`EDGEPLANE_EDGE_FAULTS: ${problems.join('; ')}`)
  return edges.map((e) => {
    const f = faults.get(e.name)
    return f ? { ...e, faults: f } : e
  })
}
