/**
 * The shape of a reconcile step (controller-runtime's Reconciler, kcp's controller triplet): a step
 * is keyed, level-based and idempotent. `reconcile(key)` re-reads everything it needs and writes the
 * difference; it never learns which event woke it. `listKeys` pages through every key the step
 * owns, so the resync timer can run it over the whole world in bounded pages. A step may offer a
 * `session` so that one batch of keys shares the reads every key would repeat.
 */
/**
 * The field manager the reconcile steps write with. Their writes to workload objects (the
 * edge-removal finalizer, the executing count, a singleton's status) are bookkeeping, not changes by
 * the objects' authors, and the merge of overlapping sources does not count them as updates.
 */
export const CONTROLLER_MANAGER = 'edgeplane-controller'

export type ReconcileResult = {
  /** What the step changed, for the log line (e.g. "created", "unchanged"). */
  outcome: string
  /** Ask to be run again after this long (transient conditions). */
  requeueAfterMs?: number
}

export type KeyPage = { keys: string[]; next?: string }

export type Controller = {
  /** Step name; also the webhook path `/hooks/<name>` and the resync cursor key. */
  name: string
  reconcile(key: string): Promise<ReconcileResult>
  listKeys(cursor: string | undefined, limit: number): Promise<KeyPage>
  /**
   * A reconciler for one batch of keys, sharing reads between them (a read-through snapshot that
   * lives only as long as the batch). Each key still re-reads its own state; what is shared is what
   * every key of the batch would read identically, such as a workload space's objects. `keys` are
   * the batch's distinct keys in the order their runs start (a session may read ahead for them).
   */
  session?(keys: readonly string[]): {
    reconcile(key: string): Promise<ReconcileResult>
    /** Finishes what the batch's runs left to do (awaited once every key of the batch ran). */
    settle?(): Promise<void>
  }
  /** How many keys of one batch may run at once; default 1. */
  concurrency?: number
  /**
   * Subrequests one key of a batch is assumed to cost until one has been measured
   * (lib/budget/pacer.ts); default KEY_COST_ESTIMATE. A step whose keys share their reads and
   * writes across the batch costs far less per key, and a lower estimate lets its first wave start
   * whole.
   */
  keyCost?: number
}

/** A failure that retrying cannot fix (bad input); logged, not retried. */
export class TerminalError extends Error {
  override name = 'TerminalError'
}
