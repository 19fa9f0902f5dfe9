/**
 * What the relay remembers of the events it saw, so an event that changes nothing a step reads
 * wakes nothing (event-keys.ts decides which keys; this module only answers "did it move?"). Each
 * memory is optional: without it every event counts, as after a relay restart.
 * - `moved`: a hash of the part of an object a step reads, per object;
 * - a workload object's translate input (lib/placement/translate-input.ts), a SyncTarget without
 *   its status, an EdgePlacement's uid and generation (translate) and what the where step reads
 *   of it, a mailbox Workspace's SyncTarget-name annotation and deletionTimestamp;
 * - per mailbox, the resourceVersion of the newest event that woke its translate key (`woken`).
 */
import { createHash } from 'node:crypto'
import { SYNC_TARGET_NAME_ANNOTATION } from '../apis/gvr.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { translateInput } from '../placement/translate-input.ts'

const digest = (value: unknown) =>
  createHash('sha256').update(canonicalJson(value)).digest('base64')

const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

/**
 * Whether an event moved what a step reads of its object: not a MODIFIED whose `input` (a hash of
 * that part) equals the one last seen under `key`. A DELETED forgets the key; without `seen`
 * (the relay keeps no memory) every event counts.
 */
function moved(
  seen: Map<string, string> | undefined,
  key: string,
  type: string,
  input: () => unknown
): boolean {
  if (!seen) return true
  if (type === 'DELETED') {
    seen.delete(key)
    return true
  }
  const hash = digest(input())
  const before = seen.get(key)
  seen.set(key, hash)
  return type !== 'MODIFIED' || before !== hash
}

/**
 * Whether a workload object's event (of `resource`, `group/resource` or `resource`) moved what a
 * step reads of it, as `input` says.
 */
export const inputMovedBy =
  (input: (obj: KubeObject) => KubeObject) =>
  (sources: Map<string, string> | undefined, type: string, resource: string, obj: KubeObject) => {
    const m = obj.metadata
    const key = [spaceOf(obj), resource, m.namespace ?? '', m.name ?? '']
    return moved(sources, key.join('\u0000'), type, () => input(obj))
  }

/** The same for what translate reads of it (lib/placement/translate-input.ts). */
export const inputMoved = inputMovedBy(translateInput)

/**
 * A SyncTarget's event and what the mailbox, where and translate steps read of it: everything
 * but its status (the heartbeat), resourceVersion and managedFields.
 */
export function syncTargetMoved(
  syncTargets: Map<string, string> | undefined,
  type: string,
  obj: KubeObject
): boolean {
  const key = `${spaceOf(obj)}\u0000${obj.metadata.name ?? ''}`
  return moved(syncTargets, key, type, () => {
    const { status: _status, ...rest } = obj
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = obj.metadata
    return { ...rest, metadata: meta }
  })
}

/**
 * Whether an EdgePlacement event may change what translate computes: not when the relay has seen
 * this placement (`key`, its where key) at this uid and generation already (a status write by the
 * where, translate or summarize step), which would otherwise re-translate every mailbox of the
 * placement.
 */
export function specMoved(
  specs: Map<string, string> | undefined,
  key: string | undefined,
  type: string,
  obj: KubeObject
): boolean {
  if (!specs || !key) return true
  if (type === 'DELETED') {
    specs.delete(key)
    return true
  }
  const seen = `${obj.metadata.uid ?? ''}/${obj.metadata.generation ?? ''}`
  const before = specs.get(key)
  specs.set(key, seen)
  return before !== seen
}

/**
 * Whether an EdgePlacement event may change what the where step decides: its uid, generation and
 * deletionTimestamp (controller-runtime's GenerationChangedPredicate, with deletion). Not a status
 * write, its own included: at 10,000 edges each would have the where step list every Location and
 * SyncTarget again. A status field of its own that someone else changed is put back by the
 * step's next run or its resync.
 */
export function whereInputMoved(
  wheres: Map<string, string> | undefined,
  key: string | undefined,
  type: string,
  obj: KubeObject
): boolean {
  if (!key) return true
  return moved(wheres, key, type, () => [
    obj.metadata.uid ?? null,
    obj.metadata.generation ?? null,
    obj.metadata.deletionTimestamp ?? null,
  ])
}

/**
 * Whether a mailbox Workspace's event may change what the mailbox step decides: its DELETED (the
 * step makes it again while the SyncTarget lives), and a MODIFIED that moved the SyncTarget-name
 * annotation or the deletionTimestamp. An ADDED is remembered and wakes nothing: the mailbox
 * step made it (one such wake per SyncTarget was half of a registration's mailbox runs).
 */
export function mailboxMoved(
  mailboxes: Map<string, string> | undefined,
  type: string,
  obj: KubeObject
): boolean {
  const name = obj.metadata.name ?? ''
  const read = () => [
    obj.metadata.annotations?.[SYNC_TARGET_NAME_ANNOTATION] ?? null,
    obj.metadata.deletionTimestamp ?? null,
  ]
  if (type === 'ADDED') {
    mailboxes?.set(name, digest(read()))
    return false
  }
  return moved(mailboxes, name, type, read)
}

/** An event's resourceVersion as a number, when it is one (the hub's are; see notWokenSince). */
export function rvOf(obj: KubeObject): number | undefined {
  const rv = Number(obj.metadata.resourceVersion)
  return Number.isSafeInteger(rv) && rv > 0 ? rv : undefined
}

/**
 * The mailboxes not woken by an event newer than `rv`. resourceVersions come from one counter, and
 * the hub hands out a change only once every write with a lower resourceVersion has landed or will
 * be announced again at a fresh one (docs/architecture/storage.md, "Watch and the ordering of late
 * writes"). So a translate run woken by an event at R reads every object written below R, and an
 * event below R has nothing new for it. That is a workload watch started by a space's first slice,
 * which replays every object the slice's own event already covered (half of a first placement's
 * translate runs through npm start).
 */
export function notWokenSince(
  mailboxes: string[],
  rv: number | undefined,
  woken: Map<string, number> | undefined
): string[] {
  if (rv === undefined || !woken) return mailboxes
  return mailboxes.filter((m) => !((woken.get(m) ?? 0) > rv))
}

/** Records, for each mailbox woken, the resourceVersion of the event that woke it. */
export function rememberWoken(
  mailboxes: Iterable<string>,
  rv: number | undefined,
  woken: Map<string, number> | undefined
): void {
  if (rv === undefined || !woken) return
  for (const m of mailboxes) if ((woken.get(m) ?? 0) < rv) woken.set(m, rv)
}
