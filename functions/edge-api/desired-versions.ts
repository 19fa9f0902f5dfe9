/**
 * The manifest versions the desired-state endpoint last read, per mailbox space and per process
 * (per store), so that an idle poll — the agent names the version it holds — is answered 304 from
 * memory: an entry is trusted while the `manifests` epoch (lib/store/epochs.ts), which moves after
 * every manifest write or deletion, still stands where it stood before the manifest was read, and
 * for at most DESIRED_TRUST_MS (the bound on staleness should a writer fail between its write and
 * the epoch's move). A change therefore reaches the agent's next poll once the process has read
 * the moved epoch (at most EPOCH_MAX_AGE_MS later). Apart from them, whatever the epoch: the
 * shared manifest each mailbox shared when last read, which a held poll also waits on
 * (desired-hold.ts).
 */
import { BoundedMap } from '../../lib/bounded-map.ts'
import { perStore } from '../../lib/store/per-store.ts'

/** How long a remembered version is trusted at most, however still the epoch stands. */
export const DESIRED_TRUST_MS = 30 * 60_000
const LIMIT = 50_000

export type KnownVersion = { version: number; epoch: number; at: number }

const versionsOf = perStore((): Map<string, KnownVersion> => new BoundedMap(LIMIT))

/** The version remembered for mailbox space `spaceId` if it may be trusted at `epoch`. */
export function trustedVersion(
  kv: Parameters<typeof versionsOf>[0],
  spaceId: string,
  epoch: number | undefined,
  now: number
): number | undefined {
  const known = versionsOf(kv).get(spaceId)
  if (!known || epoch === undefined || known.epoch !== epoch) return undefined
  if (now < known.at || now - known.at >= DESIRED_TRUST_MS) return undefined
  return known.version
}

const sharesOf = perStore((): Map<string, string> => new BoundedMap(LIMIT))

/** The shared manifest mailbox space `spaceId` shared when last read (held polls wait on it). */
export function knownShare(
  kv: Parameters<typeof versionsOf>[0],
  spaceId: string
): string | undefined {
  return sharesOf(kv).get(spaceId)
}

/** Remembers the shared manifest a read of `spaceId` named (none: forgets it). */
export function rememberShare(
  kv: Parameters<typeof versionsOf>[0],
  spaceId: string,
  shared: string | undefined
): void {
  const shares = sharesOf(kv)
  if (shared === undefined) shares.delete(spaceId)
  else shares.set(spaceId, shared)
}

/** Remembers the version read for `spaceId` after the epoch stood at `epoch`. */
export function rememberVersion(
  kv: Parameters<typeof versionsOf>[0],
  spaceId: string,
  known: KnownVersion
): void {
  const versions = versionsOf(kv)
  versions.set(spaceId, known)
}
