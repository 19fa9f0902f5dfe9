/**
 * What a group commit of manifests rings (lib/edge/bell.ts): each mailbox whose write succeeded
 * and stored something, with the content version its agent will now be served (the manifest's own
 * version or its shared manifest's, projection-types.ts `contentVersion`, the same number the
 * desired-state route compares) — or whose content version moved from the one the run knew (a
 * shared manifest another member wrote). Unchanged and failed writes ring nothing. A write whose
 * mailbox shares a shared manifest rings that manifest's key too (bell.ts `sharedBellKey`) with
 * its version: the members of other groups and batches moved with it.
 */
import {
  contentVersion,
  type ManifestWriteOutcome,
  type ManifestWriteRequest,
} from '../store/projection-types.ts'
import { sharedBellKey } from './bell.ts'

export function manifestRings(
  requests: readonly ManifestWriteRequest[],
  outcomes: readonly ManifestWriteOutcome[]
): Map<string, number> {
  const rings = new Map<string, number>()
  requests.forEach((r, i) => {
    const o = outcomes[i]
    if (!o?.ok) return
    const version = contentVersion(o.result.manifest)
    const known = r.w.known ? contentVersion(r.w.known) : undefined
    if (!o.result.written && (known === undefined || version === known)) return
    rings.set(r.mailbox, version)
    const shared = o.result.manifest.shared
    if (!shared) return
    const key = sharedBellKey(shared.membership.id)
    rings.set(key, Math.max(rings.get(key) ?? 0, shared.version))
  })
  return rings
}
