/**
 * The cron's resumption of interrupted terminations, paged to fit a Worker invocation: it walks
 * the Namespaces, Workspaces and CRDs of every space a page at a time (a cursor in the key-value
 * store, ns `maintenance`, key `terminations`: which kind, and the list's continue token), and
 * drives the termination of each one carrying a deletionTimestamp (lib/hub/terminate.ts), while
 * the invocation's current ceiling has room. Content removal itself stops at the ceiling too
 * (lib/hub/content.ts), leaving the rest to the next tick. A continue token that expired (410)
 * starts that kind again.
 */
import { hasRoom } from '../lib/budget/frames.ts'
import { OBJECT_COST_ESTIMATE } from '../lib/budget/limits.ts'
import { isApiError } from '../lib/errors.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import { getSpaceById } from '../lib/hub/spaces.ts'
import { finishTermination } from '../lib/hub/terminate.ts'
import type { KubeObject } from '../lib/kube/types.ts'

const KINDS = [
  { group: '', resource: 'namespaces' },
  { group: 'tenancy.kcp.io', resource: 'workspaces' },
  { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
]

export const MAINTENANCE_NS = 'maintenance'
const KEY = 'terminations'
/** Objects listed per page. */
const PAGE = 200
/** What one termination is assumed to need before it starts (reads, a few removals). */
const TERMINATION_COST = 4 * OBJECT_COST_ESTIMATE

type Cursor = { kind: number; continue?: string }

export type TerminationsTick = { resumed: number; pages: number; wrapped: boolean }

async function resume(deps: HubDeps, baseUrl: string, obj: KubeObject, kind: number) {
  const gr = KINDS[kind]!
  const cluster = obj.metadata.annotations?.['kcp.io/cluster'] ?? ''
  const space = await getSpaceById(deps.kv, cluster)
  if (!space) return
  const key = { cluster, ...gr, namespace: '', name: obj.metadata.name ?? '' }
  await finishTermination(deps, space, key, { baseUrl })
}

async function listPage(deps: HubDeps, at: Cursor) {
  const ref = { cluster: '*', ...KINDS[at.kind]!, limit: PAGE }
  try {
    return await deps.objects.list(at.continue ? { ...ref, continue: at.continue } : ref)
  } catch (e) {
    if (!isApiError(e) || e.code !== 410) throw e
    return deps.objects.list(ref)
  }
}

/** One tick's worth of the walk. */
export async function resumeTerminationsTick(
  deps: HubDeps,
  baseUrl: string
): Promise<TerminationsTick> {
  const entry = await deps.kv.get<Cursor>(MAINTENANCE_NS, KEY)
  let at: Cursor = entry?.value ?? { kind: 0 }
  if (!KINDS[at.kind]) at = { kind: 0 }
  const tick: TerminationsTick = { resumed: 0, pages: 0, wrapped: false }
  walk: while (hasRoom(TERMINATION_COST)) {
    const page = await listPage(deps, at)
    tick.pages++
    for (const obj of page.items.filter((o) => o.metadata.deletionTimestamp)) {
      // Not enough room for this one: the page is listed again next tick.
      if (!hasRoom(TERMINATION_COST)) break walk
      await resume(deps, baseUrl, obj, at.kind)
      tick.resumed++
    }
    if (page.continue) at = { kind: at.kind, continue: page.continue }
    else if (at.kind + 1 < KINDS.length) at = { kind: at.kind + 1 }
    else {
      at = { kind: 0 }
      tick.wrapped = true
      break
    }
  }
  await deps.kv.put(MAINTENANCE_NS, KEY, at)
  return tick
}
