/**
 * `GET /edge/v1/mailboxes/<name>/desired`: the mailbox's desired state for its edge agent (the
 * contract is lib/edge/protocol.ts, the decisions lib/edge/desired-state.ts). One manifest read
 * (GetItem) per poll: the token and the mailbox space come from per-process caches, and when the
 * agent's `If-None-Match` names the current version the answer is 304 with no body and nothing else
 * is read or written. Otherwise the bodies of the entries changed since the named version (all when
 * none is usable) are read by hash — cached in-process, immutable — and sent with the full index,
 * after the mailbox's served mark is raised to the version sent when the caller is the mailbox's
 * agent (one UpdateItem; a 304 or an admin's read writes none).
 */
import type { Context } from 'hono'
import {
  bodiesToSend,
  buildDesiredState,
  deltaBase,
  isNotModified,
  parseIfNoneMatch,
  versionEtag,
} from '../../lib/edge/desired-state.ts'
import { internalError } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { Manifest } from '../../lib/store/projection-types.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { json } from '../api/respond.ts'
import { mailboxSpace } from './desired-space.ts'

/** The manifest of mailbox `name` (undefined: none yet), re-resolving a possibly stale space. */
async function readManifest(
  deps: HubDeps,
  name: string,
  agentHoldsEmpty: boolean
): Promise<Manifest | undefined> {
  const { space, cached } = await mailboxSpace(deps.kv, name)
  const manifest = await deps.projections.getManifest(space.id)
  if (manifest || !cached || agentHoldsEmpty) return manifest
  const fresh = await mailboxSpace(deps.kv, name, { fresh: true })
  return fresh.space.id === space.id ? undefined : deps.projections.getManifest(fresh.space.id)
}

export async function handleDesired(c: Context<ApiEnv>): Promise<Response> {
  const deps = c.get('deps')
  const name = c.req.param('mailbox') ?? ''
  const named = parseIfNoneMatch(c.req.header('if-none-match'))
  const manifest = await readManifest(deps, name, isNotModified(named, 0))
  const version = manifest?.version ?? 0
  const etag = versionEtag(version)
  if (isNotModified(named, version))
    return new Response(null, { status: 304, headers: { ETag: etag, 'Cache-Control': 'no-cache' } })
  const since = deltaBase(named, version)
  const wanted = bodiesToSend(manifest, since)
  const bodies = wanted.length > 0 ? await deps.projections.getBodies(wanted) : new Map()
  const missing = wanted.filter((h) => !bodies.has(h))
  if (missing.length > 0)
    throw internalError(
      `mailbox ${name}: ${missing.length} projected bodies are missing (first ${missing[0]}); retry`
    )
  // Recorded before the answer leaves: the deletion lifecycle may drop a leaving copy at once
  // only if no version holding it was served to the agent (lib/deletion/tombstones.ts). An admin
  // reading the desired state is no agent: nothing of it reaches the edge.
  if (manifest && c.get('principal')?.kind === 'edge')
    await deps.projections.markServed(manifest.mailbox, version)
  const res = json(buildDesiredState(name, manifest, since, bodies))
  res.headers.set('ETag', etag)
  res.headers.set('Cache-Control', 'no-cache')
  return res
}
