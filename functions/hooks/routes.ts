/**
 * The reconcile webhooks: `POST /hooks/<step>` with `{"keys": [...]}` runs that step for each key
 * (duplicates collapse) and answers with each key's outcome. Deliveries are at-least-once and the
 * steps are idempotent, so a repeated delivery is harmless. Only admin tokens may call them (the
 * watch relay runs with one). Unknown steps are 404; a malformed body is 400.
 * A call runs within its invocation's subrequest budget (docs/ARCHITECTURE.md, "Workers limits"):
 * keys start while the hook's share of the budget has room for them, and the answer (still 200)
 * lists the keys it did not start under `deferred`, in order, for the caller to send again.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { authorizeAdmin } from '../../lib/auth/tokens.ts'
import { currentInvocation, withShare } from '../../lib/budget/frames.ts'
import { SHARES } from '../../lib/budget/limits.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { runBatch } from '../../lib/reconcile/run.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { readBody } from '../api/body.ts'
import { json } from '../api/respond.ts'
import { buildControllers } from '../controllers.ts'

const HookBodySchema = z.object({ keys: z.array(z.string().min(1).max(512)).min(1).max(500) })

export async function handleHook(c: Context<ApiEnv>): Promise<Response> {
  authorizeAdmin(c.get('principal'), 'call reconcile hooks')
  const deps = c.get('deps')
  const step = c.req.param('step')
  const controller = buildControllers(deps, c.get('url').origin).find((x) => x.name === step)
  if (!controller) throw notFound('hooks', { name: step ?? '' })
  const parsed = HookBodySchema.safeParse(await readBody(c.req.raw))
  if (!parsed.success)
    throw badRequest(
      `invalid hook body: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`
    )
  const observe = deps.ops?.metrics.reconcileObserver
  const inv = currentInvocation()
  if (inv) inv.kind = `hook:${controller.name}`
  const { results, deferred } = await withShare(SHARES.hook, () =>
    runBatch(controller, parsed.data.keys, deps.log, observe)
  )
  if (deferred.length > 0)
    deps.log.info('hook deferred keys', { step, ran: results.length, deferred: deferred.length })
  return json({ step, results, deferred })
}
