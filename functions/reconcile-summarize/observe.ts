/**
 * What the mailboxes say about a set of (object, destinations) pairs: per destination — a
 * SyncTarget, i.e. one mailbox; two Locations selecting one SyncTarget are one destination — its
 * agent's last heartbeat and its Location's labels (one list each per inventory space), and per
 * pair the copy's manifest entry, its state and its body. Each mailbox is read once (the manifest,
 * then the states of the copies asked for in one batch), sixteen at a time; bodies are
 * content-addressed, so a thousand copies of one object cost one body read. Only the mailboxes of
 * the destinations asked for are read.
 */

import type { KubeObject } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { CopyKey, ProjectionStore, StoredCopyState } from '../../lib/store/projection-types.ts'
import type { CopyFacts } from '../../lib/summarize/copy-condition.ts'
import { heardAt, type MailboxView, type Reads } from './reads.ts'

export type Pair = { object: SourceObject; destinations: readonly Destination[] }

/** One destination as the summaries see it. */
export type Seen = {
  destination: Destination
  mailbox: string
  beatAt?: number
  locationLabels: Record<string, string>
}

export type Observations = {
  destination(d: Destination): Seen
  /** What the mailbox of `d` holds about `object` (no entry: not in the mailbox). */
  facts(object: SourceObject, d: Destination): Omit<CopyFacts, 'live'>
}

type Read = { view: MailboxView; states: Map<string, StoredCopyState> }

/** `destinations`: more destinations whose heartbeat and Location are wanted (no copies). */
export async function observe(
  reads: Reads,
  projections: ProjectionStore,
  pairs: readonly Pair[],
  destinations: readonly Destination[] = []
): Promise<Observations> {
  const wanted = new Map<string, Map<string, CopyKey>>()
  const clusters = new Set<string>(destinations.map((d) => d.cluster))
  for (const p of pairs) {
    const key = copyKeyOf(p.object)
    for (const d of p.destinations) {
      clusters.add(d.cluster)
      const mb = mailboxOfDestination(d)
      const keys = wanted.get(mb) ?? new Map<string, CopyKey>()
      keys.set(entryKey(key), key)
      wanted.set(mb, keys)
    }
  }
  const inventories = new Map(
    await mapLimit([...clusters], 8, async (c) => [c, await reads.inventory(c)] as const)
  )
  const mailboxes = new Map(
    await mapLimit([...wanted], 16, async ([mb, keys]): Promise<[string, Read | undefined]> => {
      const view = await reads.mailbox(mb)
      if (!view) return [mb, undefined]
      const held = [...keys.values()].filter((k) => view.entries.has(entryKey(k)))
      return [mb, { view, states: held.length > 0 ? await reads.states(view, held) : new Map() }]
    })
  )
  const hashes = new Set<string>()
  for (const [mb, keys] of wanted) {
    const read = mailboxes.get(mb)
    for (const k of keys.keys()) {
      const hash = read?.view.entries.get(k)?.hash
      if (hash) hashes.add(hash)
    }
  }
  const bodies: Map<string, KubeObject> = await projections.getBodies([...hashes])
  // An object's entry key, worked out once per object: facts() is asked per pair, many times.
  const keyOf = new WeakMap<SourceObject, string>()
  const entryKeyOf = (o: SourceObject) => {
    let k = keyOf.get(o)
    if (k === undefined) {
      k = entryKey(copyKeyOf(o))
      keyOf.set(o, k)
    }
    return k
  }
  return {
    destination(d) {
      const inv = inventories.get(d.cluster)
      const beatAt = heardAt(inv, d.syncTargetUID)
      const labels = inv?.locations.get(d.locationName)?.metadata.labels ?? {}
      const seen: Seen = {
        destination: d,
        mailbox: mailboxOfDestination(d),
        locationLabels: labels,
      }
      if (beatAt !== undefined) seen.beatAt = beatAt
      return seen
    },
    facts(object, d) {
      const inv = inventories.get(d.cluster)
      const beatAt = heardAt(inv, d.syncTargetUID)
      const read = mailboxes.get(mailboxOfDestination(d))
      const k = entryKeyOf(object)
      const entry = read?.view.entries.get(k)
      const state = read?.states.get(k)
      const body = entry ? bodies.get(entry.hash) : undefined
      return {
        ...(beatAt !== undefined ? { beatAt } : {}),
        ...(entry ? { entry } : {}),
        ...(state ? { state } : {}),
        ...(body ? { body } : {}),
      }
    },
  }
}
