/**
 * The kind an invocation is counted under, from its request: `hook` for the reconcile hooks
 * (relabelled `hook:<step>` by the hook handler once the step is known), `edge-poll` for an
 * agent's desired-state poll, `edge` for the rest of the edge API, `api` for everything else. The
 * watch handler relabels its invocation `watch` (watches come in several spellings), and the cron
 * runs as `cron`. Kinds come from a fixed set, never from the request's text. The paths are told
 * apart as the metrics' route classes tell them (lib/metrics/route-class.ts).
 */
import { specialRoute } from '../metrics/route-class.ts'

export function requestKind(method: string, url: string): string {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return 'api'
  }
  const route = specialRoute(path)
  if (route === 'hooks') return 'hook'
  if (route === 'edge-desired' && method === 'GET') return 'edge-poll'
  return route?.startsWith('edge-') ? 'edge' : 'api'
}
