/**
 * The liveness sweep over one page of SyncTargets (the cron walks every space's, a page at a
 * time: functions/maintenance-liveness.ts): for each, what the center knows of its agent — the
 * later of its lease's renewal and its stored heartbeat (lib/summarize/liveness.ts `lastHeard`)
 * and the version the lease holds (without a lease, the one stored) — and, where the stored Ready condition or agentVersion says
 * something else, one write by their writer (sync-target-liveness.ts). That is how an edge turns
 * Stale (no event says so), a SyncTarget no agent ever heard from gets NeverSeen, and a heartbeat's
 * write that lost a race is healed. Cheap at 10,000 edges: one list page per 500 SyncTargets and
 * one lease Query per inventory space each tick (leases are read once per space per tick: `Leases`),
 * and a write only where something changed — an edge's transition, not its every minute.
 */
import type { HubDeps } from '../hub/deps.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { lastHeard } from '../summarize/liveness.ts'
import { type EdgeLease, edgeRecordsOf } from './lease.ts'
import { livenessCurrent, writeLiveness } from './sync-target-liveness.ts'
import { agentVersionOf } from './sync-target-ready.ts'

/** An inventory space's leases, read at most once per sweep tick. */
export type Leases = Map<string, Promise<Map<string, EdgeLease>>>

export type SweptPage = { checked: number; written: number; raced: number; stopped: boolean }

function leasesOf(deps: HubDeps, leases: Leases, cluster: string) {
  let got = leases.get(cluster)
  if (!got) {
    got = edgeRecordsOf(deps.kv, cluster)
    leases.set(cluster, got)
  }
  return got
}

/**
 * Brings each SyncTarget of `items` (a cross-space list page) to what its agent's liveness calls
 * for. `room()` is asked before each write; when it says no, the page stops (`stopped`) and is to
 * be swept again.
 */
export async function sweepLivenessPage(
  deps: HubDeps,
  items: readonly KubeObject[],
  at: { leases: Leases; room: () => boolean }
): Promise<SweptPage> {
  const done: SweptPage = { checked: 0, written: 0, raced: 0, stopped: false }
  for (const st of items) {
    const inventory = st.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
    if (st.metadata.deletionTimestamp || !inventory) continue
    done.checked++
    const lease = (await leasesOf(deps, at.leases, inventory)).get(st.metadata.uid ?? '')
    // Without a lease (none yet, or lost) the version stored stays what the center knows.
    const agentVersion = lease ? lease.agentVersion : agentVersionOf(st)
    const heard = { lastHeard: lastHeard(st, lease?.renewedAt), agentVersion }
    if (livenessCurrent(deps, st, heard)) continue
    if (!at.room()) {
      done.stopped = true
      break
    }
    const wrote = await writeLiveness(deps, { inventory, st, heard })
    if (wrote === 'written') done.written++
    else if (wrote === 'raced') done.raced++
  }
  return done
}
