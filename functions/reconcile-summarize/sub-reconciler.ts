/**
 * The shape of the summarize step's parts and the loop that runs them in order. A key's run
 * first reads its world once (run-input.ts), then hands it to each part of `reconcile.ts`'s
 * ordered list, as kcp's workspace reconciler runs its reconcilers: a part is a name and a
 * `run(input)` answering what it did (`done`, phrases for the log line) and, when it needs to
 * look again without an event, how soon (`requeueAfterMs`). The loop runs the parts one after the
 * other (their writes in a fixed order, so a budget that runs out defers the same ones every
 * time), collects every `done` in order and takes the soonest requeue. A part gets the
 * dependencies it uses as plain function fields when it is built, so each one can be run by a
 * table test without a hub.
 */

/** What one part did, and when it asks to be run again (undefined: no need). */
export type PartResult = { done: string[]; requeueAfterMs?: number }

/** One named part of a run over `I`, the run's input (or the part of it this part reads). */
export type SubReconciler<I> = {
  name: string
  run(input: I): Promise<PartResult>
}

/** The result of running `parts` over `input` in order: every `done`, the soonest requeue. */
export async function runInOrder<I>(
  parts: readonly SubReconciler<I>[],
  input: I
): Promise<PartResult> {
  const done: string[] = []
  let soonest: number | undefined
  for (const part of parts) {
    const r = await part.run(input)
    done.push(...r.done)
    const next = r.requeueAfterMs
    if (next !== undefined && (soonest === undefined || next < soonest)) soonest = next
  }
  return soonest === undefined ? { done } : { done, requeueAfterMs: soonest }
}

/** A part's result: `done` as given, with `requeueAfterMs` only when there is one. */
export function partResult(done: string[], requeueAfterMs?: number): PartResult {
  return requeueAfterMs === undefined ? { done } : { done, requeueAfterMs }
}
