/**
 * The readable form of a log check's report (lib/store/log-check.ts): one line per finding, saying
 * which object, what the store holds and what the log last says, then a summary line.
 */
import type { LogCheckReport, LogFinding, LogProblem } from '../../lib/store/log-check.ts'

const SAYS: Record<LogProblem, string> = {
  'unlogged-write': 'stored, but its last write was never logged',
  'unlogged-delete': 'gone, but its delete was never logged',
  'logged-deleted': 'logged DELETED, but still stored',
  'logged-ahead': 'logged past its stored version',
}

/** `o#<space>#<group>/<resource>` as `<space> <resource>[.<group>]`. */
function collectionName(pk: string): string {
  const [, space = '', gr = ''] = pk.split('#')
  const [group = '', resource = ''] = gr.split('/')
  return `${space} ${group ? `${resource}.${group}` : resource}`
}

function line(f: LogFinding): string {
  const stored = f.storedRv === undefined ? 'not stored' : `stored at ${f.storedRv}`
  const logged = f.lastEntry
    ? `last logged ${f.lastEntry.type} at ${f.lastEntry.rv}`
    : 'never logged'
  return `${collectionName(f.collection)} ${f.object}: ${SAYS[f.problem]} (${stored}, ${logged})`
}

export function renderReport(r: LogCheckReport): string {
  const summary = `${r.objects} objects, ${r.entries} change-log entries (watermark ${r.watermark}): ${
    r.findings.length === 0 ? 'every last change is in the log' : `${r.findings.length} found`
  }`
  return `${[...r.findings.map(line), summary].join('\n')}\n`
}
