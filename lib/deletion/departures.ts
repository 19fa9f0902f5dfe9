/**
 * The deletion lifecycle's index of where tombstones wait (lifecycle.ts, state 2 to 4): the
 * departures record of a workload space: key-value ns `departures`, key the workload space id,
 * value `{mailboxes: [...]}` — the names of the mailboxes holding tombstones (copies leaving an
 * edge, not confirmed gone yet) sourced from that space. The translate step adds a mailbox before
 * it writes a manifest with a new such tombstone and removes it after the write that drops the
 * last one, so the record never misses a tombstone (it may briefly name a mailbox that holds none,
 * which costs a read). The summarize step reads it to find removals that are no longer at any
 * current destination of the space's placements (a placement deleted, a Location unselected), for
 * the source finalizer and the per-placement removing counts. An emptied record stays, with no
 * mailboxes, until the summarize step finds nothing left waiting in the space and deletes it
 * (`clearDepartures`): until then the summarize controller lists a key for the space even when it
 * has no EdgePlacement left, so the last source finalizers are lifted by the resync even if every
 * event was missed. Writes are conditional on the record's version and retried on conflict.
 */
import { isApiError } from '../errors.ts'
import type { KvStore } from '../store/types.ts'

export const DEPARTURES_NS = 'departures'
const ATTEMPTS = 5

type Value = { mailboxes: string[] }

const isConflict = (e: unknown) => isApiError(e) && e.code === 409

/** The mailbox names listed for `spaceId` (sorted; empty when none) and whether a record exists. */
export async function readDepartures(
  kv: KvStore,
  spaceId: string
): Promise<{ mailboxes: string[]; recorded: boolean }> {
  const entry = await kv.get<Value>(DEPARTURES_NS, spaceId)
  const mailboxes = Array.isArray(entry?.value?.mailboxes) ? entry.value.mailboxes : []
  return { mailboxes, recorded: entry !== undefined }
}

async function change(
  kv: KvStore,
  spaceId: string,
  edit: (list: Set<string>) => boolean
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const entry = await kv.get<Value>(DEPARTURES_NS, spaceId)
    const list = new Set(Array.isArray(entry?.value?.mailboxes) ? entry.value.mailboxes : [])
    if (!edit(list)) return
    try {
      const value: Value = { mailboxes: [...list].sort() }
      await kv.put(DEPARTURES_NS, spaceId, value, entry ? entry.version : null)
      return
    } catch (e) {
      if (!isConflict(e) || attempt + 1 >= ATTEMPTS) throw e
    }
  }
}

/** Lists `mailbox` for each of `spaceIds` (no write where it is listed already). */
export async function addDeparture(
  kv: KvStore,
  spaceIds: Iterable<string>,
  mailbox: string
): Promise<void> {
  for (const spaceId of spaceIds) {
    await change(kv, spaceId, (list) => !list.has(mailbox) && !!list.add(mailbox))
  }
}

/** Unlists `mailbox` for each of `spaceIds` (no write where it is not listed). */
export async function removeDeparture(
  kv: KvStore,
  spaceIds: Iterable<string>,
  mailbox: string
): Promise<void> {
  for (const spaceId of spaceIds) await change(kv, spaceId, (list) => list.delete(mailbox))
}

/**
 * Deletes the record of `spaceId` if it lists no mailbox (at the version read: a concurrent add
 * wins, and the record stays). True when deleted or absent.
 */
export async function clearDepartures(kv: KvStore, spaceId: string): Promise<boolean> {
  const entry = await kv.get<Value>(DEPARTURES_NS, spaceId)
  if (!entry) return true
  if (entry.value?.mailboxes?.length) return false
  try {
    await kv.delete(DEPARTURES_NS, spaceId, entry.version)
    return true
  } catch (e) {
    if (isConflict(e)) return false
    throw e
  }
}
