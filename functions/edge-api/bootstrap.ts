/**
 * `POST /edge/v1/bootstrap` (admin only): for one SyncTarget, issue its mailbox's edge credential
 * and answer with the manifests that run the agent on the edge cluster (lib/edge/manifests.ts; the
 * agent image is the request's `image`, else lib/edge/manifests-image.ts's, and is echoed in the
 * answer). 400 names the bad field; 404 when the inventory space or the SyncTarget is absent; 409
 * Conflict naming the field `rotate` when the SyncTarget already has a credential and the request
 * does not say `rotate: true` (decided in the credential's conditional write, before anything is
 * written: the current token keeps working; with `rotate` it is revoked); 409 while the SyncTarget
 * is being deleted, when it is stored invalid (it does not decode by its schema: logged, and named
 * in the answer; the mailbox step skips it too) or when a concurrent bootstrap of the same mailbox
 * won; 503 (retry) while the mailbox Workspace does not exist yet — the mailbox step creates it
 * shortly after the SyncTarget appears.
 */
import type { Context } from 'hono'
import { decodeObject, describeIssues, reportInvalid } from '../../lib/apis/decode.ts'
import { SyncTargetSchema } from '../../lib/apis/edge-inventory.ts'
import { SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { authorizeAdmin } from '../../lib/auth/tokens.ts'
import { issueEdgeCredential } from '../../lib/edge/credentials.ts'
import {
  DEFAULT_AGENT_IMAGE,
  DEFAULT_AGENT_NAMESPACE,
  renderEdgeManifestsYaml,
} from '../../lib/edge/manifests.ts'
import {
  BootstrapRequestSchema,
  type BootstrapResponse,
} from '../../lib/edge/manifests-bootstrap.ts'
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts'
import { getSpaceByPath, resolveSpace } from '../../lib/hub/spaces.ts'
import { mailboxName, mailboxSpacePath } from '../../lib/reconcile/keys.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { readBody } from '../api/body.ts'
import { json } from '../api/respond.ts'

function parseRequest(body: unknown) {
  const parsed = BootstrapRequestSchema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const causes = parsed.error.issues.map((i) => ({
    reason: 'FieldValueInvalid',
    field: i.path.join('.') || 'body',
    message: i.message,
  }))
  throw badRequest(
    `invalid bootstrap request: ${causes.map((c) => `${c.field}: ${c.message}`).join('; ')}`,
    causes
  )
}

export async function handleBootstrap(c: Context<ApiEnv>): Promise<Response> {
  authorizeAdmin(c.get('principal'), 'bootstrap edge clusters')
  const deps = c.get('deps')
  const req = parseRequest(await readBody(c.req.raw))
  const inventory = await resolveSpace(deps.kv, req.inventory)
  const { group, resource } = SYNC_TARGETS
  const st = await deps.objects.get({
    cluster: inventory.id,
    group,
    resource,
    namespace: '',
    name: req.syncTarget,
  })
  if (!st) throw notFound(resource, { group, kind: 'SyncTarget', name: req.syncTarget })
  const decoded = decodeObject(SyncTargetSchema, st)
  if (!decoded.ok) {
    reportInvalid(deps.log, 'bootstrap', decoded.problem)
    const why = `the stored SyncTarget does not match its schema: ${describeIssues(decoded.problem)}`
    throw conflict(resource, { group, name: req.syncTarget }, why)
  }
  if (st.metadata.deletionTimestamp || !st.metadata.uid)
    throw conflict(resource, { group, name: req.syncTarget }, 'the SyncTarget is being deleted')
  const mailbox = mailboxName(inventory.id, st.metadata.uid)
  const mailboxPath = mailboxSpacePath(mailbox)
  const space = await getSpaceByPath(deps.kv, mailboxPath)
  if (space?.phase !== 'Ready')
    throw new ApiError(
      503,
      'ServiceUnavailable',
      `the mailbox workspace ${mailboxPath} of SyncTarget "${req.syncTarget}" is not ready yet (the mailbox step creates it shortly after the SyncTarget appears); retry in a few seconds`,
      { details: { kind: 'Workspace', name: mailbox, retryAfterSeconds: 5 } }
    )
  const centerUrl = (req.centerUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '')
  const namespace = req.namespace ?? DEFAULT_AGENT_NAMESPACE
  const image = req.image ?? DEFAULT_AGENT_IMAGE
  const issued = await issueEdgeCredential(deps.kv, mailbox, deps.now(), {
    rotate: req.rotate ?? false,
    syncTarget: req.syncTarget,
  })
  const manifests = renderEdgeManifestsYaml({
    mailbox,
    syncTarget: req.syncTarget,
    token: issued.token,
    centerUrl,
    namespace,
    ...(req.caPem ? { caPem: req.caPem } : {}),
    image,
    ...(req.pollIntervalSeconds ? { pollIntervalSeconds: req.pollIntervalSeconds } : {}),
  })
  deps.log.info('edge credential issued', {
    mailbox,
    syncTarget: req.syncTarget,
    rotated: req.rotate ?? false,
  })
  const answer: BootstrapResponse = {
    kind: 'EdgeBootstrap',
    mailbox,
    syncTarget: req.syncTarget,
    namespace,
    centerUrl,
    image,
    token: issued.token,
    issuedAt: issued.issuedAt,
    manifests,
  }
  return json(answer)
}
