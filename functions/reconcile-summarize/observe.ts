/**
 * What the mailboxes say about a set of (object, destinations) pairs: per destination — a
 * SyncTarget, i.e. one mailbox; two Locations selecting one SyncTarget are one destination — its
 * agent's last heartbeat and its Location's labels (one list each per inventory space), and per
 * pair the copy's manifest entry, its state and its body. Each mailbox is read once (the manifest,
 * then the states of the copies asked for in one batch), sixteen at a time; bodies are
 * content-addressed, so a thousand copies of one object cost one body read. Only the mailboxes of
 * the destinations asked for are read. All of it is asked for one workload space (`spaceId`): a
 * copy whose recorded sources do not name that space is not its copy (another space's object of
 * the same identity, which trust scopes keep apart, translate's trust-scopes.ts) and is seen as
 * absent — no entry, no state, no body — so no summary, Summarizer or dashboard view of one space
 * shows what another space sent. A copy with no recorded sources (written before they were) counts
 * as the space's, as the finalizer's test does.
 */

import type { KubeObject } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type {
  CopyKey,
  ManifestEntry,
  ProjectionStore,
  StoredCopyState,
} from '../../lib/store/projection-types.ts'
import type { CopyFacts } from '../../lib/summarize/copy-condition.ts'
import { heardAt, type Inventory, type MailboxView, type Reads } from './reads.ts'

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

/** Whether the copy of `entry` was made (also) of what the space sent. */
const sentFrom = (entry: { sources?: { space: string }[] }, spaceId: string) =>
  !entry.sources || entry.sources.some((s) => s.space === spaceId)

/** What is asked: for the workload space `spaceId`, its `pairs`, and more `destinations`. */
export type Asked = {
  /** The workload space the pairs' objects are of. */
  spaceId: string
  pairs: readonly Pair[]
  /** More destinations whose heartbeat and Location are wanted (no copies). */
  destinations?: readonly Destination[]
}

export async function observe(
  reads: Pick<Reads, 'inventory' | 'mailbox' | 'states'>,
  projections: Pick<ProjectionStore, 'getBodies'>,
  { spaceId, pairs, destinations = [] }: Asked
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
      const held = [...keys.values()].filter((k) => {
        const entry = view.entries.get(entryKey(k))
        return entry !== undefined && sentFrom(entry, spaceId)
      })
      return [mb, { view, states: held.length > 0 ? await reads.states(view, held) : new Map() }]
    })
  )
  const hashes = new Set<string>()
  for (const [mb, keys] of wanted) {
    const read = mailboxes.get(mb)
    for (const k of keys.keys()) {
      const entry = read?.view.entries.get(k)
      if (entry && sentFrom(entry, spaceId)) hashes.add(entry.hash)
    }
  }
  const bodies: Map<string, KubeObject> = await projections.getBodies([...hashes])
  return observationsOf(inventories, bodies, (mailbox, k) => {
    const read = mailboxes.get(mailbox)
    const found = read?.view.entries.get(k)
    const entry = found && sentFrom(found, spaceId) ? found : undefined
    const state = entry ? read?.states.get(k) : undefined
    return { ...(entry ? { entry } : {}), ...(state ? { state } : {}) }
  })
}

/** What a mailbox holds of one copy sourced from the space: its entry, and its state. */
export type HeldCopy = { entry?: ManifestEntry; state?: StoredCopyState }

/**
 * The observations of destinations from their inventories (heartbeats, Location labels), the
 * copies' bodies by hash and `held`, what each mailbox holds of a copy (by entryKey) sourced from
 * the space — read just now (observe) or kept by the pages of a placement (pages/).
 */
export function observationsOf(
  inventories: ReadonlyMap<string, Inventory>,
  bodies: ReadonlyMap<string, KubeObject>,
  held: (mailbox: string, entryKey: string) => HeldCopy
): Observations {
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
      const { entry, state } = held(mailboxOfDestination(d), entryKeyOf(object))
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
