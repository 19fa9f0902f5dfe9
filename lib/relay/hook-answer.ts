/**
 * Reading the answer of `POST /hooks/<step>` (functions/hooks/routes.ts): each run key's outcome
 * under `results`, and under `deferred` the keys the hook did not start because its invocation's
 * budget ran short. Both become the batcher's per-key results (batcher.ts), deferred keys marked so
 * they are sent again. An answer of another shape yields undefined (every key counts as done).
 */
import { z } from 'zod'
import type { KeyResult } from './batcher.ts'

const HookAnswerSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      key: z.string(),
      ok: z.boolean(),
      outcome: z.string().optional(),
      requeueAfterMs: z.number().optional(),
    })
  ),
  deferred: z.array(z.string()).optional(),
})

export function hookKeyResults(body: unknown): KeyResult[] | undefined {
  const answer = HookAnswerSchema.safeParse(body)
  if (!answer.success) return undefined
  const deferred = (answer.data.deferred ?? []).map((key) => ({ key, ok: true, deferred: true }))
  return [...answer.data.results, ...deferred]
}
