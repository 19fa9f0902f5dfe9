/**
 * `POST /edge/v1/mailboxes/<name>/reports`: an edge agent's report (lib/edge/protocol.ts) landed
 * in its mailbox by lib/edge/apply-report.ts. The route (routes.ts) has already checked that the
 * caller may use this mailbox. The body must be a JSON Report, its optional `agent` (version and
 * poll interval) included (400 naming the offending fields otherwise); the answer is a
 * ReportResult, 200 even when some items were rejected.
 */
import type { Context } from 'hono'
import { applyReport, parseReport, UPSYNC_MANAGER } from '../../lib/edge/apply-report.ts'
import { createHubClient } from '../../lib/hub/client.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { readBody } from '../api/body.ts'
import { json } from '../api/respond.ts'
import { mailboxSpace } from './desired-space.ts'

export async function handleReports(c: Context<ApiEnv>): Promise<Response> {
  const deps = c.get('deps')
  const name = c.req.param('mailbox') ?? ''
  const report = parseReport(await readBody(c.req.raw))
  const { space } = await mailboxSpace(deps.kv, name)
  const client = createHubClient(deps, {
    fieldManager: UPSYNC_MANAGER,
    baseUrl: new URL(c.req.url).origin,
  })
  return json(await applyReport({ deps, client }, { name, space }, report))
}
