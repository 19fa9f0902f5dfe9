/**
 * The summarize step's keys for a hub event (keys are the where step's, one per EdgePlacement:
 * `<space-id>/<name>`; a slice's is its placement's, lib/placement/slice-owner.ts). What an edge reports lands in its
 * mailbox space: a copy-state write logs the copy as MODIFIED there (and a manifest write its
 * copies as ADDED/MODIFIED/DELETED; an upsync a stored object), and cross-space watches see those
 * events with the mailbox space's id as `kcp.io/cluster`. So an event in a mailbox space wakes
 * the placements whose slices name that mailbox (slice index); the space id → mailbox name map
 * comes from the mailbox Workspaces in espw (`spec.cluster`), listed at every start. A SyncTarget
 * wakes the placements naming its mailbox only when its status heartbeat says it came back — first
 * seen by this relay, or after a gap that `cameBack` (lib/summarize/liveness.ts, by the staleness
 * rule the Worker is configured with: `state.liveness`) tells from the status refresh of a live
 * edge (every ten minutes); turning stale has no event, nor has a
 * return that looks like a refresh: the step asks to be run again for those. EdgePlacements wake
 * their own key, slices their placement's, a Location every placement (its labels group Summarizers), a
 * Summarizer the placements of its space. Events missed meanwhile are healed by the resync.
 */

import { CLUSTER_ANNOTATION, type JsonValue, type KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'
import { sliceWhereKey } from '../placement/slice-owner.ts'
import { isMailboxName, mailboxOf, whereKey, whereKeyOf } from '../reconcile/keys.ts'
import { cameBack, DEFAULT_LIVENESS, heartbeatAt, type Liveness } from '../summarize/liveness.ts'
import type { SliceIndex, SliceRef } from './slice-index.ts'

export const SUMMARIZE_STEP = 'summarize'

export type SummarizeKeysState = {
  /** Mailbox space id -> mailbox name. */
  mailboxSpaces: Map<string, string>
  /** Mailbox name -> the last heartbeat seen on its SyncTarget (epoch ms; undefined: none). */
  beats: Map<string, number | undefined>
  /** The edges' staleness rule, as the Worker is configured with it. */
  liveness: Liveness
}

export function createSummarizeKeysState(
  liveness: Liveness = DEFAULT_LIVENESS
): SummarizeKeysState {
  return { mailboxSpaces: new Map(), beats: new Map(), liveness }
}

type Ref = { group: string; resource: string }
type Key = { step: string; key: string }

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

const keysOf = (slices: Iterable<SliceRef>): Key[] =>
  [...new Set([...slices].map((s) => whereKey(s.space, s.placement)))]
    .sort()
    .map((key) => ({ step: SUMMARIZE_STEP, key }))

function own(obj: KubeObject): Key[] {
  const key = whereKeyOf(obj)
  return key ? [{ step: SUMMARIZE_STEP, key }] : []
}

/** Whether this heartbeat makes the SyncTarget live again (first sight, or after a gap). */
function revived(state: SummarizeKeysState, mailbox: string, obj: KubeObject): boolean {
  const beat = heartbeatAt(obj)
  const known = state.beats.has(mailbox)
  const before = state.beats.get(mailbox)
  state.beats.set(mailbox, beat)
  if (beat === undefined || beat === before) return false
  return !known || before === undefined || cameBack(beat - before, state.liveness)
}

function workspace(type: string, obj: KubeObject, espw: string, state: SummarizeKeysState): void {
  const name = obj.metadata.name
  const spec = obj.spec as JsonValue | undefined
  const id = isJsonObject(spec) && typeof spec.cluster === 'string' ? spec.cluster : undefined
  if (spaceOf(obj) !== espw || !name || !isMailboxName(name) || !id) return
  if (type === 'DELETED') state.mailboxSpaces.delete(id)
  else state.mailboxSpaces.set(id, name)
}

export function summarizeKeys(
  ref: Ref,
  type: string,
  obj: KubeObject,
  deps: { espwSpaceId: string; index: SliceIndex; summarize: SummarizeKeysState }
): Key[] {
  const { index, summarize: state } = deps
  if (ref.group === 'edge.kcp.io') {
    switch (ref.resource) {
      case 'edgeplacements':
        return own(obj)
      case 'singleplacementslices': {
        const key = sliceWhereKey(obj)
        return key ? [{ step: SUMMARIZE_STEP, key }] : []
      }
      case 'locations':
        return keysOf(index.slices())
      case 'summarizers': {
        const space = spaceOf(obj)
        return keysOf(index.slices().filter((s) => s.space === space))
      }
      case 'synctargets': {
        const mailbox = mailboxOf(obj)
        if (!mailbox) return []
        if (type === 'DELETED') {
          state.beats.delete(mailbox)
          return []
        }
        return revived(state, mailbox, obj) ? keysOf(index.slicesNaming(mailbox)) : []
      }
    }
  }
  if (ref.group === 'tenancy.kcp.io' && ref.resource === 'workspaces')
    workspace(type, obj, deps.espwSpaceId, state)
  const space = spaceOf(obj)
  const mailbox = space ? state.mailboxSpaces.get(space) : undefined
  return mailbox ? keysOf(index.slicesNaming(mailbox)) : []
}
