/**
 * Is a mailbox complete? The fan-out phase reads every mailbox's manifest straight from the table
 * (the uncounted inspect store) and checks it against a list of wanted entries, each by key
 * (`group/resource/namespace/name`, as lib/store/projection-diff.ts spells it) and optionally with a
 * hash it must no longer have (the entry was rewritten). The check itself is pure.
 */
import type { Manifest, ManifestEntry, ProjectionStore } from '../lib/store/projection-types.ts'
import { runLoad } from './load.ts'

export type WantedEntry = { key: string; notHash?: string }

export type Mailbox = { key: string; spaceId: string }

export const entryKeyOf = (e: Pick<ManifestEntry, 'group' | 'resource' | 'namespace' | 'name'>) =>
  `${e.group}/${e.resource}/${e.namespace}/${e.name}`

export const configMapKey = (namespace: string, name: string) => `/configmaps/${namespace}/${name}`
export const namespaceKey = (name: string) => `/namespaces//${name}`
export const SYNCER_CONFIG_KEY = 'edge.kcp.io/syncerconfigs//the-one'

/** How many wanted entries the manifest lacks (absent manifest: all of them). */
export function unmet(manifest: Manifest | undefined, wants: readonly WantedEntry[]): number {
  const byKey = new Map((manifest?.entries ?? []).map((e) => [entryKeyOf(e), e]))
  let missing = 0
  for (const w of wants) {
    const e = byKey.get(w.key)
    if (!e || (w.notHash !== undefined && e.hash === w.notHash)) missing++
  }
  return missing
}

/** The hash of the entry at `key`, or undefined. */
export function hashAt(manifest: Manifest | undefined, key: string): string | undefined {
  return manifest?.entries.find((e) => entryKeyOf(e) === key)?.hash
}

/** Every mailbox's manifest, in input order, read `concurrency` at a time. */
export async function readManifests(
  store: ProjectionStore,
  mailboxes: readonly Mailbox[],
  concurrency = 16
): Promise<(Manifest | undefined)[]> {
  const out: (Manifest | undefined)[] = new Array(mailboxes.length)
  await runLoad({ count: mailboxes.length, concurrency }, async (i) => {
    out[i] = await store.getManifest(mailboxes[i]!.spaceId)
  })
  return out
}

/** The mailboxes whose manifest does not hold every wanted entry. */
export async function incomplete(
  store: ProjectionStore,
  mailboxes: readonly Mailbox[],
  wants: readonly WantedEntry[]
): Promise<Mailbox[]> {
  const manifests = await readManifests(store, mailboxes)
  return mailboxes.filter((_, i) => unmet(manifests[i], wants) > 0)
}
