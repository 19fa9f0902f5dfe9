/**
 * What an edge's mailbox holds, copy by copy, in the summarize step's states
 * (lib/summarize/copy-condition.ts): the edges view counts them per edge (so an edge with a failed
 * copy reads failed, not healthy) and the edge panel lists them. A copy is classified from its
 * manifest entry, the state the edge reported and its body (for the kind's readiness), with the
 * edge's liveness as the edges view computed it; a stale edge's copies are all stale, read without
 * their states. The mailbox's SyncerConfig is bookkeeping for the agent, no copy. A copy counts
 * for the session only when one of the workload spaces it was sent from is one the session may
 * see (an admin sees every copy, also those with no recorded sources), so a tenant never learns
 * how another tenant's copies fare. Reads per mailbox: its manifest, then the states of its
 * copies in one batch; bodies once per distinct content.
 */
import type { CopyCounts } from '../../lib/apis/edge-summary.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { isSyncerConfigEntry } from '../../lib/placement/syncer-config.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { ManifestEntry, StoredCopyState } from '../../lib/store/projection-types.ts'
import {
  type CopyCondition,
  type CopyStateName,
  copyCondition,
} from '../../lib/summarize/copy-condition.ts'
import { zeroCounts } from '../reconcile-summarize/placement-summary.ts'
import type { MailboxView } from '../reconcile-summarize/reads.ts'
import { worstOf } from './states.ts'
import type { View } from './view.ts'

/** One copy an edge holds, as the session may see it. */
export type HeldCopy = {
  entry: ManifestEntry
  condition: CopyCondition
  /** The paths of the workload spaces it came from that the session sees, each its placements. */
  sources: { space: string; placements: string[] }[]
}

/** An edge to read: its mailbox and whether its agent is live (the edges view's staleness). */
export type EdgeAsked = { key: string; live: boolean; beatAt?: number | undefined }

/** The copies of `mailbox` the session sees (sources resolved to paths), unclassified. */
async function visibleEntries(view: View, mailbox: MailboxView) {
  const out: { entry: ManifestEntry; sources: HeldCopy['sources'] }[] = []
  for (const entry of mailbox.entries.values()) {
    if (isSyncerConfigEntry(entry)) continue
    const named = await Promise.all(
      (entry.sources ?? []).map(async (s) => ({
        space: await view.pathOf(s.space),
        placements: s.placements,
      }))
    )
    const sources = named.filter((s) => maySee(view.principal, s.space))
    const admin = view.principal.kind === 'admin'
    if (sources.length > 0 || (admin && named.length === 0)) out.push({ entry, sources })
  }
  return out
}

/** By mailbox key, the copies each edge holds (none when its mailbox is not ready). */
export async function heldCopies(
  view: View,
  edges: readonly EdgeAsked[]
): Promise<Map<string, HeldCopy[]>> {
  const read = await mapLimit(edges, 8, async (e) => {
    const mailbox = await view.reads.mailbox(e.key)
    if (!mailbox) return { e, held: [], states: new Map<string, StoredCopyState>() }
    const held = await visibleEntries(view, mailbox)
    const states = e.live
      ? await view.reads.states(
          mailbox,
          held.map((h) => h.entry)
        )
      : new Map<string, StoredCopyState>()
    return { e, held, states }
  })
  const hashes = new Set<string>()
  for (const r of read) if (r.e.live) for (const h of r.held) hashes.add(h.entry.hash)
  const bodies: Map<string, KubeObject> = hashes.size
    ? await view.hub.projections.getBodies([...hashes])
    : new Map()
  const out = new Map<string, HeldCopy[]>()
  for (const { e, held, states } of read)
    out.set(
      e.key,
      held.map(({ entry, sources }) => {
        const state = states.get(entryKey(entry))
        const body = bodies.get(entry.hash)
        const condition = copyCondition({
          live: e.live,
          ...(e.beatAt !== undefined ? { beatAt: e.beatAt } : {}),
          entry,
          ...(state ? { state } : {}),
          ...(body ? { body } : {}),
        })
        return { entry, condition, sources }
      })
    )
  return out
}

/** How many of `copies` are in each state, and the worst. */
export function tally(copies: readonly HeldCopy[]): {
  counts: CopyCounts
  worst: CopyStateName | null
} {
  const counts = zeroCounts()
  for (const c of copies) counts[c.condition.state]++
  return { counts, worst: worstOf(counts) }
}
