/**
 * Deletes what the agent owns and the desired state no longer has. Candidates come ONLY from the
 * ownership record (ownership.ts), never from an annotation on edge objects: an edge controller
 * may copy `edge.kcp.io/downsynced` onto objects it makes (KubeStellar's ReplicaSet-deletion loop,
 * #900), and those are not in the record. Each delete carries a uid precondition, so an object
 * someone recreated under the same name is not touched. Order: everything else, then CRDs, then
 * Namespaces. A built-in namespace, a CRD of a built-in group, a create-only object
 * (create-only.ts) and the agent's own objects (self-protection.ts: an older agent may have
 * recorded one) are never deleted (their record is just dropped, without a read). A pending
 * entry (no uid: a create whose uid was never recorded) is deleted only when its object carries
 * this agent's marker (marker.ts), with that object's uid as precondition; otherwise it is
 * dropped. 404 and 409 (the object is gone, or it is not ours any more) drop the record; other
 * failures keep it and report a DeleteFailed problem, retried next poll. Only called after a
 * successful read of the desired state: an unreachable center never leads here.
 */
import type { Builtins } from '../apis/builtins.ts'
import type { Problem } from '../edge/protocol.ts'
import type { Logger } from '../log.ts'
import { isRemoteError } from '../remote/remote-error.ts'
import type { EdgeKube } from './kube-client.ts'
import { markedBy } from './marker.ts'
import type { Owned, OwnedRecord } from './ownership.ts'
import { refOf } from './refs.ts'
import { phaseOf } from './selection.ts'
import { type AgentSelf, protectedReason } from './self-protection.ts'

export type PruneDeps = {
  kube: EdgeKube
  owned: Owned
  builtins: Builtins
  log: Logger
  /** The agent's name in its marker (marker.ts). */
  identity: string
  /** The agent's own objects (self-protection.ts): never deleted. */
  self?: AgentSelf
}
export type PruneResult = { pruned: number; dropped: number; problems: Problem[] }

function isBuiltinRecord(r: OwnedRecord, b: Builtins): boolean {
  if (r.group === '' && r.resource === 'namespaces') return b.namespaces.has(r.name)
  return r.crdGroup !== undefined && b.groups.has(r.crdGroup)
}

export async function pruneOwned(
  deps: PruneDeps,
  desiredKeys: ReadonlySet<string>
): Promise<PruneResult> {
  const out: PruneResult = { pruned: 0, dropped: 0, problems: [] }
  const gone = [...deps.owned]
    .filter(([key]) => !desiredKeys.has(key))
    .sort(
      ([ka, a], [kb, b]) =>
        phaseOf(b.group, b.resource) - phaseOf(a.group, a.resource) || (ka < kb ? -1 : 1)
    )
  for (const [key, rec] of gone) {
    const neverDeleted =
      rec.createOnly ||
      isBuiltinRecord(rec, deps.builtins) ||
      (deps.self !== undefined && protectedReason(rec, deps.self) !== undefined)
    let uid = rec.uid
    try {
      if (uid === undefined && !neverDeleted) uid = await pendingUid(deps, rec)
    } catch (e) {
      out.problems.push(deleteFailed(rec, e))
      continue
    }
    if (uid === undefined || neverDeleted) {
      deps.owned.delete(key)
      out.dropped += 1
      const pending = rec.uid === undefined
      deps.log.warn('ownership dropped without delete', {
        key,
        pending,
        createOnly: !!rec.createOnly,
      })
      continue
    }
    try {
      await deps.kube.delete(refOf(rec), { uid })
      deps.owned.delete(key)
      out.pruned += 1
    } catch (e) {
      if (isRemoteError(e, 404) || isRemoteError(e, 409)) {
        deps.owned.delete(key)
        out.dropped += 1
        continue
      }
      out.problems.push(deleteFailed(rec, e))
    }
  }
  return out
}

/** The uid of a pending entry's object when it carries this agent's marker (a GET). */
async function pendingUid(deps: PruneDeps, rec: OwnedRecord): Promise<string | undefined> {
  const live = await deps.kube.get(refOf(rec))
  return live && markedBy(live, deps.identity) ? live.metadata.uid : undefined
}

function deleteFailed(rec: OwnedRecord, e: unknown): Problem {
  const message = e instanceof Error ? e.message : String(e)
  return { ...refOf(rec), reason: 'DeleteFailed', message: message.slice(0, 2000) }
}
