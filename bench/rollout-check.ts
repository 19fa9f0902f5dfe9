/**
 * Which mailboxes hold a Rollout's revision of the changed ConfigMap: each manifest read straight
 * from the table (the uncounted inspect store), the copy's body read once per distinct hash (the
 * waves' mailboxes share their copies), and a mailbox counted as holding it when the body carries
 * the stamp `edge.kcp.io/rollout-revision: <rollout>/<revision>` and the new data. `holding`
 * answers per wave; `wavesAsExpected` is the phase's check: the waves up to the promoted one hold
 * it, and no mailbox of a later wave does yet. Not timed.
 */
import { ROLLOUT_REVISION_ANNOTATION, stampValue } from '../lib/rollout/stamp.ts'
import type { ProjectionStore } from '../lib/store/projection-types.ts'
import { hashAt, type Mailbox, readManifests } from './fan-out-check.ts'

export type Wanted = { key: string; rollout: string; revision: number; payload: string }

/** Per wave, the mailboxes that do not hold the revision yet, and how many do. */
export type Holding = { lacking: Mailbox[]; holding: number }[]

export async function holding(
  inspect: ProjectionStore,
  waves: readonly (readonly Mailbox[])[],
  want: Wanted
): Promise<Holding> {
  const manifests = await Promise.all(waves.map((w) => readManifests(inspect, w)))
  const hashes = manifests.map((ms) => ms.map((m) => hashAt(m, want.key)))
  const distinct = [...new Set(hashes.flat().filter((h): h is string => !!h))]
  const bodies = await inspect.getBodies(distinct)
  const stamp = stampValue(want.rollout, want.revision)
  const held = new Set(
    distinct.filter((h) => {
      const b = bodies.get(h) as
        | { metadata?: { annotations?: Record<string, string> }; data?: { payload?: unknown } }
        | undefined
      return (
        b?.metadata?.annotations?.[ROLLOUT_REVISION_ANNOTATION] === stamp &&
        b.data?.payload === want.payload
      )
    })
  )
  return waves.map((w, i) => {
    const lacking = w.filter((_, j) => !held.has(hashes[i]![j] ?? ''))
    return { lacking, holding: w.length - lacking.length }
  })
}

/** A problem when the waves up to `promoted` do not all hold it or a later one holds any; else undefined. */
export function wavesAsExpected(h: Holding, promoted: number): string | undefined {
  for (const [i, w] of h.entries()) {
    if (i <= promoted && w.lacking.length > 0)
      return `wave ${i}: ${w.lacking.length} mailboxes lack the revision`
    if (i > promoted && w.holding > 0)
      return `wave ${i}: ${w.holding} mailboxes hold the revision before their wave`
  }
  return undefined
}
