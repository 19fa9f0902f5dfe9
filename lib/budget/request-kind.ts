/**
 * The kind an invocation is counted under, from its request: `hook` for the reconcile hooks
 * (relabelled `hook:<step>` by the hook handler once the step is known), `edge-poll` for an
 * agent's desired-state poll, `edge` for the rest of the edge API, `api` for everything else. The
 * watch handler relabels its invocation `watch` (watches come in several spellings), and the cron
 * runs as `cron`. Kinds come from a fixed set, never from the request's text.
 */
import { EDGE_API_PREFIX } from '../edge/protocol.ts'

const DESIRED = new RegExp(`^${EDGE_API_PREFIX}/mailboxes/[^/]+/desired$`)

export function requestKind(method: string, url: string): string {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return 'api'
  }
  if (path.startsWith('/hooks/')) return 'hook'
  if (method === 'GET' && DESIRED.test(path)) return 'edge-poll'
  if (path === EDGE_API_PREFIX || path.startsWith(`${EDGE_API_PREFIX}/`)) return 'edge'
  return 'api'
}
