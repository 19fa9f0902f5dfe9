/**
 * The cron's liveness sweep, paged to fit a Worker invocation: every tick walks the SyncTargets of
 * every space a page at a time (one cross-space list on the index) from where the last tick
 * stopped (a cursor in the key-value store, ns `maintenance`, key `liveness`: the list's continue
 * token) to the end of the list, while the invocation's current ceiling has room, and has each
 * page's Ready conditions and agent versions brought in line with the staleness rule
 * (lib/edge/liveness-sweep.ts). So an edge whose agent went silent reads Ready Unknown (Stale) in
 * `kubectl get synctargets` within one cron period after the threshold. A full walk ends the tick;
 * the next starts a new one. A continue token that expired (410) starts the walk again.
 */

import { SYNC_TARGETS } from '../lib/apis/gvr.ts'
import { hasRoom } from '../lib/budget/frames.ts'
import { type Leases, sweepLivenessPage } from '../lib/edge/liveness-sweep.ts'
import { isApiError } from '../lib/errors.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import { MAINTENANCE_NS } from './maintenance-terminations.ts'

const KEY = 'liveness'
/** SyncTargets listed per page. */
const PAGE = 500
/** What listing a page is assumed to need (the page, a lease Query or two). */
const PAGE_COST = 4
/** What one status write is assumed to need (space record, object, change log). */
const WRITE_COST = 6

type Cursor = { continue?: string }

export type LivenessTick = {
  checked: number
  written: number
  raced: number
  pages: number
  wrapped: boolean
}

async function listPage(deps: HubDeps, from: string | undefined) {
  const ref = { cluster: '*', group: SYNC_TARGETS.group, resource: SYNC_TARGETS.resource }
  const page = { ...ref, limit: PAGE }
  try {
    return await deps.objects.list(from ? { ...page, continue: from } : page)
  } catch (e) {
    if (!isApiError(e) || e.code !== 410) throw e
    return deps.objects.list(page)
  }
}

/** One tick's worth of the walk: from the cursor to the end of the list, or the budget. */
export async function sweepLivenessTick(deps: HubDeps): Promise<LivenessTick> {
  const entry = await deps.kv.get<Cursor>(MAINTENANCE_NS, KEY)
  let from = entry?.value.continue
  const tick: LivenessTick = { checked: 0, written: 0, raced: 0, pages: 0, wrapped: false }
  const leases: Leases = new Map()
  while (hasRoom(PAGE_COST)) {
    const page = await listPage(deps, from)
    tick.pages++
    const swept = await sweepLivenessPage(deps, page.items, {
      leases,
      room: () => hasRoom(WRITE_COST),
    })
    tick.checked += swept.checked
    tick.written += swept.written
    tick.raced += swept.raced
    // Stopped for room: this page is listed again next tick (what it wrote is then unchanged).
    if (swept.stopped) break
    from = page.continue
    if (!from) {
      tick.wrapped = true
      break
    }
  }
  await deps.kv.put(MAINTENANCE_NS, KEY, from ? { continue: from } : {})
  return tick
}
