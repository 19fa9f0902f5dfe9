/**
 * The center Worker's entry: `fetch` serves the hub API (and, as later steps land, the edge API and
 * the reconcile hooks) from one hono app; `scheduled` runs the periodic maintenance — change-log
 * retention and finishing interrupted terminations — on the cron in wrangler.toml. The store and
 * configuration are created once per isolate and environment (workerd hands every request the same
 * `env` object while the bindings are unchanged; one with other bindings gets its own store, caches
 * and kind hooks, never another's); the first request (and any after ADMIN_TOKEN changes) makes
 * ADMIN_TOKEN the admin token, revoking the previous one (admin-token.ts). Before anything
 * parses it, the request's method and URL string go through the raw-target checks
 * (lib/kube/raw-target.ts): a runtime that passes the URL through unnormalized must not let
 * `configmaps/%2e%2e` reach the Namespace. workerd and Cloudflare's edge normalize dot segments
 * before the Worker runs, so there the check cannot see them (see docs/ARCHITECTURE.md, "Raw
 * request paths"); the local stack checks in front of workerd, and its Worker answers only
 * requests the front forwarded (front-gate.ts: a per-start secret header, checked first; off in
 * production, where no secret is set). Each request and each cron run
 * is one invocation with its own subrequest budget (lib/budget/frames.ts). The health routes
 * answer INSTANCE_ID, when set, in a header (lib/instance-label.ts). Held desired-state polls
 * wait on the bell's Durable Objects (MAILBOX_BELL, mailbox-bell.ts, exported here for the
 * platform), longest hold EDGE_HOLD_MAX_SECONDS; without the binding or at 0 nothing is held.
 * Past EDGE_MAX_IN_FLIGHT edge requests in work the isolate sheds the next (lib/edge/admission.ts).
 */
import type { Context } from 'hono'
import { budgetFromConfig } from '../lib/budget/config.ts'
import { runInvocation } from '../lib/budget/frames.ts'
import type { BudgetConfig } from '../lib/budget/invocation.ts'
import { requestKind } from '../lib/budget/request-kind.ts'
import { createEdgeAdmission, type EdgeAdmission } from '../lib/edge/admission.ts'
import type { EdgeHold } from '../lib/edge/bell.ts'
import { createWakeGate, WORKER_KEEP_ALIVE_MS } from '../lib/edge/wake-gate.ts'
import { type Config, type Env, readConfig } from '../lib/env.ts'
import { hubDeps, openStore, type StoreHandle } from '../lib/hub/hub-deps.ts'
import { labelHealth } from '../lib/instance-label.ts'
import { checkRawRequest, targetOfUrl } from '../lib/kube/raw-target.ts'
import { type HubOps, storeHubOps } from '../lib/metrics/hub-ops.ts'
import { type AdminGate, createAdminGate } from './admin-token.ts'
import { createApp } from './api/app.ts'
import { json } from './api/respond.ts'
import { checkFront, frontSecretOf } from './front-gate.ts'
import { durableBell, namespaceStubs } from './mailbox-bell-client.ts'
import { runMaintenance } from './maintenance.ts'

export { MailboxBell } from './mailbox-bell.ts'

/**
 * What an isolate builds once per environment, from its configuration read once: the store with
 * its caches and kind hooks (lib/hub/hub-deps.ts), each invocation's budget (lib/budget/;
 * docs/ARCHITECTURE.md, "Workers limits"), the metrics with the readiness check
 * (docs/ARCHITECTURE.md, "Metrics") and the admin-token gate.
 */
type Isolate = {
  handle: StoreHandle
  budget: BudgetConfig
  ops: HubOps
  ensureAdmin: AdminGate
  /** INSTANCE_ID, answered by the health routes (lib/instance-label.ts). */
  instance: string | undefined
  /** EDGE_HOLD_MAX_SECONDS: the longest hold of an edge's poll (0: none). */
  holdMaxSeconds: number
  /** EDGE_MAX_IN_FLIGHT: the edge requests this isolate works on before it sheds (0: never). */
  admission: EdgeAdmission
}

/** By `env` object, and by configuration (less ADMIN_TOKEN) for an equal `env` passed anew. */
const byEnv = new WeakMap<Env, Isolate>()
const byConfig = new Map<string, Isolate>()
const MAX_CONFIGS = 16

function buildIsolate(cfg: Config): Isolate {
  const handle = openStore(cfg)
  const flushEveryMs = cfg.METRICS_FLUSH_SECONDS * 1000
  return {
    handle,
    budget: budgetFromConfig(cfg, handle.log),
    ops: storeHubOps(handle.store, { log: handle.log, flushEveryMs }),
    ensureAdmin: createAdminGate(),
    instance: cfg.INSTANCE_ID,
    holdMaxSeconds: cfg.EDGE_HOLD_MAX_SECONDS,
    admission: createEdgeAdmission({ limit: cfg.EDGE_MAX_IN_FLIGHT }),
  }
}

/** The held polls' bell per Durable Object namespace (one per isolate and binding). */
const holds = new WeakMap<DurableObjectNamespace, EdgeHold>()

function holdFor(env: Env, isolate: Isolate): EdgeHold | undefined {
  const ns = env.MAILBOX_BELL
  if (!ns || isolate.holdMaxSeconds === 0) return undefined
  let hold = holds.get(ns)
  if (!hold) {
    hold = {
      bell: durableBell(namespaceStubs(ns), isolate.handle.log),
      maxSeconds: isolate.holdMaxSeconds,
      wakes: createWakeGate({ keepAliveMs: WORKER_KEEP_ALIVE_MS }),
    }
    holds.set(ns, hold)
  }
  return hold
}

function isolateFor(env: Env): Isolate {
  const known = byEnv.get(env)
  if (known) return known
  const { ADMIN_TOKEN: _token, ...cfg } = readConfig(env)
  const key = JSON.stringify(cfg)
  let isolate = byConfig.get(key)
  if (!isolate) {
    isolate = buildIsolate(cfg)
    if (byConfig.size >= MAX_CONFIGS) byConfig.clear()
    byConfig.set(key, isolate)
  }
  byEnv.set(env, isolate)
  return isolate
}

function depsFor(env: Env, ctx: { waitUntil(p: Promise<unknown>): void }) {
  const isolate = isolateFor(env)
  const { handle, ops } = isolate
  const edgeHold = holdFor(env, isolate)
  const deps = hubDeps(handle, (p) => ctx.waitUntil(p.catch(() => undefined)))
  return {
    ...deps,
    ops,
    ...(edgeHold ? { edgeHold } : {}),
    ...(isolate.admission.limit > 0 ? { edgeAdmission: isolate.admission } : {}),
  }
}

const app = createApp((c: Context) => depsFor(c.env as Env, c.executionCtx))

export default {
  async fetch(req, env, ctx) {
    const outside = checkFront(frontSecretOf(env), req.headers)
    if (outside) return json(outside.toStatus(), outside.code)
    const refused = checkRawRequest(req.method, targetOfUrl(req.url))
    if (refused) return json(refused.toStatus(), refused.code)
    const { handle: h, budget, ensureAdmin, instance } = isolateFor(env)
    const res = await runInvocation(requestKind(req.method, req.url), budget, async () => {
      const adminRefused = await ensureAdmin(h.store.kv, env.ADMIN_TOKEN, h.log)
      if (adminRefused) return adminRefused
      return app.fetch(req, env, ctx)
    })
    return labelHealth(req.url, res, instance)
  },
  async scheduled(controller, env, ctx) {
    const { handle: h, budget } = isolateFor(env)
    const deps = depsFor(env, ctx)
    const run = runInvocation('cron', budget, () =>
      runMaintenance(deps, h.store, { cron: controller.cron, baseUrl: '' }).finally(() =>
        deps.ops.metrics.flush()
      )
    )
    ctx.waitUntil(run)
  },
} satisfies ExportedHandler<Env>
