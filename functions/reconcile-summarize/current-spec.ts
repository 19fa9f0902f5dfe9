/**
 * Whether a copy carries the current spec of its workload object, for the singleton status
 * return and the Ready condition: a copy reported for its own current generation may still hold
 * an older spec of the object when the translator has not run since the object changed, and its
 * status would then be returned as if the new spec were observed (or the copy counted ready). An uncustomized copy is current when its spec hash
 * (the manifest entry's, the body without metadata) is the hash of the object's projection now;
 * a customized copy differs per destination by design, so it is taken as current (the window
 * until the translator runs, normally a second, is accepted there).
 */
import { asksForCustomization } from '../../lib/customize/annotations.ts'
import { projectBody } from '../../lib/placement/project.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { specHash } from '../../lib/store/projection-hash.ts'
import type { ManifestEntry } from '../../lib/store/projection-types.ts'

export async function carriesCurrentSpec(
  source: SourceObject,
  entry: ManifestEntry | undefined
): Promise<boolean> {
  if (!entry) return false
  if (asksForCustomization(source.object)) return true
  return (await specHash(projectBody(source.object))) === entry.specHash
}

/**
 * The spec hash an uncustomized copy of the object carries when current; undefined for an object
 * asking for customization (taken as current, as above). For comparing many copies at once.
 */
export async function currentSpecHash(source: SourceObject): Promise<string | undefined> {
  if (asksForCustomization(source.object)) return undefined
  return specHash(projectBody(source.object))
}
