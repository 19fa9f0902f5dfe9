/**
 * The edge API's storm control as hono middleware (lib/edge/admission.ts has the policy), run on
 * the mailbox routes (desired-state polls, held or not, and reports with their heartbeats) right
 * after the request is counted and before authentication, which may read the store: past the
 * process's limit of edge requests in work the answer is at once kube's 429 TooManyRequests Status
 * with a jittered `Retry-After`, as kube-apiserver's max-in-flight filter answers, nothing read.
 * Each shed request is counted (`edgeplane_edge_shed_total`), and one warn line a second at most
 * says how many were shed. An admitted request's ticket is set for the held poll
 * (desired-hold.ts), which parks it while it waits on the bell; it is released once answered.
 * Bootstrap is left out: an admin's request, as kube exempts system:masters from its limit.
 */
import type { Context, Next } from 'hono'
import type { Shed } from '../../lib/edge/admission.ts'
import { tooManyRequests } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { specialRoute } from '../../lib/metrics/route-class.ts'
import type { ApiEnv } from '../api/api-env.ts'

function noteShed(deps: HubDeps, route: string, shed: Shed): void {
  deps.ops?.metrics.edgeShed(route)
  if (shed.report)
    deps.log.warn('shedding edge requests: at the limit of edge requests in work', {
      shed: shed.report.shed,
      inFlight: shed.inFlight,
      limit: shed.limit,
      retryAfterSeconds: shed.retryAfterSeconds,
    })
}

export async function admitEdgeRequest(c: Context<ApiEnv>, next: Next): Promise<void> {
  const deps = c.get('deps')
  const admission = deps.edgeAdmission
  if (!admission) return next()
  const admitted = admission.admit()
  if (!admitted.ok) {
    noteShed(deps, specialRoute(c.get('url').pathname) ?? 'edge-other', admitted)
    throw tooManyRequests(
      `Too many requests, please try again later: the center is working on its limit of ${admitted.limit} edge requests`,
      admitted.retryAfterSeconds
    )
  }
  c.set('admission', admitted.ticket)
  try {
    await next()
  } finally {
    admitted.ticket.release()
  }
}
