/**
 * Runs every request of a fetch handler (a hono app's `fetch`, which `app.request()` also goes
 * through) as one invocation with its own budget, named by request-kind.ts. Used by the plain-Node
 * hub (functions/node-server.ts) when given a budget; the Worker entry calls runInvocation itself.
 */
import { runInvocation } from './frames.ts'
import type { BudgetConfig } from './invocation.ts'
import { requestKind } from './request-kind.ts'

type FetchHandler = (req: Request, ...rest: never[]) => Response | Promise<Response>

/** Replaces `target.fetch` with a version that runs each call as one invocation. */
export function budgetEveryRequest<T extends { fetch: FetchHandler }>(
  target: T,
  config: BudgetConfig
): T {
  const inner = target.fetch.bind(target) as (
    req: Request,
    ...rest: unknown[]
  ) => Response | Promise<Response>
  const wrapped = (req: Request, ...rest: unknown[]) =>
    runInvocation(requestKind(req.method, req.url), config, async () => inner(req, ...rest))
  target.fetch = wrapped as T['fetch']
  return target
}
