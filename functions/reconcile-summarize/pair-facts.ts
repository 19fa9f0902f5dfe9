/**
 * What the Ready condition and the problem Events need beyond the summary, from the same
 * classified (object, destination) pairs of one placement: the failed pairs with their reasons,
 * messages and the edge's name (lib/summarize/edge-problems.ts groups them), and how many pairs
 * counted applied or ready hold a copy that does not carry the object's current spec yet (the
 * translator has not run since the object changed; current-spec.ts), hashed once per object.
 */

import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import type { Destination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import { type CopyCondition, isExecuting } from '../../lib/summarize/copy-condition.ts'
import type { FailedPair, Involved } from '../../lib/summarize/edge-problems.ts'
import { currentSpecHash } from './current-spec.ts'
import type { Observations } from './observe.ts'

export type PairFacts = { failed: FailedPair[]; outdated: number }

export function involvedOf(o: SourceObject): Involved {
  const m = o.object.metadata
  return {
    apiVersion: o.object.apiVersion,
    kind: o.object.kind,
    name: m.name ?? '',
    ...(o.namespaced && m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
  }
}

function labelOf(o: SourceObject): string {
  const k = copyKeyOf(o)
  const resource = k.group ? `${k.resource}.${k.group}` : k.resource
  return `${resource} ${k.namespace ? `${k.namespace}/` : ''}${k.name}`
}

export async function pairFacts(
  objects: readonly SourceObject[],
  destinations: readonly Destination[],
  condition: (o: SourceObject, d: Destination) => CopyCondition,
  seen: Observations
): Promise<PairFacts> {
  const failed: FailedPair[] = []
  let outdated = 0
  for (const o of objects) {
    const executing: Destination[] = []
    for (const d of destinations) {
      const c = condition(o, d)
      if (isExecuting(c)) executing.push(d)
      if (c.state !== 'failed') continue
      failed.push({
        objectKey: entryKey(copyKeyOf(o)),
        label: labelOf(o),
        object: involvedOf(o),
        destination: d.syncTargetName,
        reason: c.reason ?? 'Failed',
        ...(c.message ? { message: c.message } : {}),
      })
    }
    if (executing.length === 0) continue
    const current = await currentSpecHash(o)
    if (current === undefined) continue
    for (const d of executing) if (seen.facts(o, d).entry?.specHash !== current) outdated++
  }
  return { failed, outdated }
}
