/**
 * The deletion lifecycle of placed objects (seed 002: finalizers hold an upstream deletion until
 * the downstream copy is gone): its states, its finalizer and the rules every step reads them
 * by. This is the index of the lifecycle: the steps that move an object between states call in
 * here.
 *
 * A workload object (source) and its mailbox copies go through these states:
 * 1. placed: a live manifest entry in each destination's mailbox. Once some mailbox holds a copy,
 *    the summarize step adds EDGE_REMOVAL_FINALIZER to the source
 *    (functions/reconcile-summarize/workload-writes.ts).
 * 2. leaving: the translate step finds a copy no longer desired (source deleted or deselected,
 *    placement deleted, Location unselected) and keeps it as a tombstone, `removing` set to the
 *    time in kube's form (lib/kube/time.ts; tombstones.ts, via
 *    functions/reconcile-translate/removal-plan.ts), listing the
 *    mailbox in the source space's departures record first (departures.ts). Clients of the mailbox
 *    see the tombstone as an object being deleted, holding EDGE_REMOVAL_FINALIZER
 *    (lib/store/projection-render.ts). A tombstone desired again is revived (same uid).
 * 3. removed at the edge: the agent deletes what it owns under the key (lib/edge-agent/prune.ts)
 *    and, once it holds nothing there, confirms in its report (lib/edge-agent/removals.ts); the
 *    center records a `gone` copy state of the tombstone's uid (lib/edge/report-removals.ts).
 * 4. gone: translate drops a tombstone whose state isConfirmedGone (a DELETED event in the
 *    mailbox) and, after that write, unlists the mailbox from the departures record.
 * 5. released: summarize lifts the source's finalizer (source-finalizer.ts) once the source is
 *    terminating or placed nowhere and no mailbox holds an entry sourced from its space for its
 *    key (functions/reconcile-summarize/removals.ts); the hub then removes a terminating source
 *    (lib/hub/write.ts: deletionTimestamp and no finalizers left). A mailbox whose SyncTarget is
 *    gone holds nothing to wait for.
 * The relay wakes these steps on objects that awaitEdgeRemoval (lib/relay/removal-keys.ts).
 * Pure; no store or step imports, so every layer may use it.
 */

/**
 * The finalizer of "waiting for the edge to remove it": on a tombstoned copy in its mailbox, and
 * (written by the summarize step) on a workload object that has copies at some destination.
 */
export const EDGE_REMOVAL_FINALIZER = 'edge.kcp.io/edge-removal'

type Meta = { finalizers?: string[] | undefined; deletionTimestamp?: string | undefined }

export const hasEdgeRemovalFinalizer = (m: Meta | undefined) =>
  (m?.finalizers ?? []).includes(EDGE_REMOVAL_FINALIZER)

/** Being deleted while the edge-removal finalizer holds it (a tombstone, or a waiting source). */
export const awaitsEdgeRemoval = (m: Meta | undefined) =>
  !!m?.deletionTimestamp && hasEdgeRemovalFinalizer(m)

/** `finalizers` with the edge-removal finalizer last (added once). */
export const withEdgeRemovalFinalizer = (finalizers: readonly string[] | undefined) => [
  ...(finalizers ?? []).filter((f) => f !== EDGE_REMOVAL_FINALIZER),
  EDGE_REMOVAL_FINALIZER,
]

/** `finalizers` without the edge-removal finalizer. */
export const withoutEdgeRemovalFinalizer = (finalizers: readonly string[] | undefined) =>
  (finalizers ?? []).filter((f) => f !== EDGE_REMOVAL_FINALIZER)

/** Whether the edge confirmed this copy gone: a `gone` state of the same uid. */
export const isConfirmedGone = (
  entry: { uid: string },
  state: { uid: string; gone?: boolean | undefined } | undefined
) => state?.uid === entry.uid && !!state.gone
