/**
 * The center Worker's entry: `fetch` serves the hub API (and, as later steps land, the edge API and
 * the reconcile hooks) from one hono app; `scheduled` runs the periodic maintenance — change-log
 * retention and finishing interrupted terminations — on the cron in wrangler.toml. The store and
 * configuration are created once per isolate. Before anything parses it, the request's method and
 * URL string go through the raw-target checks (lib/kube/raw-target.ts): a runtime that passes the
 * URL through unnormalized must not let `configmaps/%2e%2e` reach the Namespace. workerd and
 * Cloudflare's edge normalize dot segments before the Worker runs, so there the check cannot see
 * them (see docs/ARCHITECTURE.md, "Raw request paths"); the local stack checks in front of workerd.
 */
import type { Context } from 'hono'
import { registerToken } from '../lib/auth/tokens.ts'
import { type Env, readConfig } from '../lib/env.ts'
import { registerBuiltinHooks } from '../lib/hub/builtin-hooks.ts'
import { hubDeps, openStore, type StoreHandle } from '../lib/hub/hub-deps.ts'
import { checkRawRequest, targetOfUrl } from '../lib/kube/raw-target.ts'
import { createApp } from './api/app.ts'
import { json } from './api/respond.ts'
import { runMaintenance } from './maintenance.ts'

registerBuiltinHooks()

let handle: StoreHandle | undefined
let adminRegistered = false

function storeFor(env: Env): StoreHandle {
  handle ??= openStore(readConfig(env))
  return handle
}

const app = createApp((c: Context) => {
  const env = c.env as Env
  const ctx = c.executionCtx
  return hubDeps(storeFor(env), (p) => ctx.waitUntil(p.catch(() => undefined)))
})

export default {
  async fetch(req, env, ctx) {
    const refused = checkRawRequest(req.method, targetOfUrl(req.url))
    if (refused) return json(refused.toStatus(), refused.code)
    const h = storeFor(env)
    if (!adminRegistered && env.ADMIN_TOKEN) {
      await registerToken(h.store.kv, env.ADMIN_TOKEN, {
        name: 'admin',
        kind: 'admin',
        spaces: [],
        groups: ['system:masters'],
      })
      adminRegistered = true
    }
    return app.fetch(req, env, ctx)
  },
  async scheduled(controller, env, ctx) {
    const h = storeFor(env)
    const deps = hubDeps(h, (p) => ctx.waitUntil(p.catch(() => undefined)))
    ctx.waitUntil(runMaintenance(deps, h.store, { cron: controller.cron, baseUrl: '' }))
  },
} satisfies ExportedHandler<Env>
