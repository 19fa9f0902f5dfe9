/**
 * `GET /edge/v1/mailboxes/<name>/desired`: the mailbox's desired state for its edge agent (the
 * contract is lib/edge/protocol.ts, the decisions lib/edge/desired-state.ts). The token and the
 * mailbox space come from per-process caches, and so, for an idle poll, does the answer: when the
 * agent's `If-None-Match` names the version this process last read for the mailbox and the
 * `manifests` epoch has not moved since (desired-versions.ts), the answer is 304 with nothing read
 * or written. Otherwise one manifest read (GetItem): 304 again when it names that version; else
 * the bodies of the entries changed since the named version (all when none is usable) are read by
 * hash — cached in-process, immutable — and sent with the full index, after the mailbox's served
 * mark is raised to the version sent when the caller is the mailbox's agent (one UpdateItem; a
 * 304 or an admin's read writes none). A poll that asks to be held goes through desired-hold.ts,
 * which calls this before and after its hold.
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
import { currentEpoch } from '../../lib/store/epochs.ts'
import { contentVersion, type Manifest } from '../../lib/store/projection-types.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { json } from '../api/respond.ts'
import { mailboxSpace } from './desired-space.ts'
import { rememberShare, rememberVersion, trustedVersion } from './desired-versions.ts'

/**
 * The manifest of mailbox `name` (undefined: none yet), re-resolving a possibly stale space; the
 * version read is remembered for idle polls (desired-versions.ts).
 */
async function readManifest(
  deps: HubDeps,
  at: { name: string; spaceId: string; cached: boolean; epoch: number | undefined; now: number },
  agentHoldsEmpty: boolean
): Promise<Manifest | undefined> {
  const { name, epoch, now } = at
  const remember = (spaceId: string, m: Manifest | undefined) => {
    rememberShare(deps.kv, spaceId, m?.shared?.membership.id)
    if (epoch !== undefined)
      rememberVersion(deps.kv, spaceId, { version: m ? contentVersion(m) : 0, epoch, at: now })
    return m
  }
  const manifest = remember(at.spaceId, await deps.projections.getManifest(at.spaceId))
  if (manifest || !at.cached || agentHoldsEmpty) return manifest
  const fresh = await mailboxSpace(deps.kv, name, { fresh: true })
  if (fresh.space.id === at.spaceId) return undefined
  return remember(fresh.space.id, await deps.projections.getManifest(fresh.space.id))
}

const notModified = (etag: string) =>
  new Response(null, { status: 304, headers: { ETag: etag, 'Cache-Control': 'no-cache' } })

/**
 * The desired-state answer. `fresh`: not from the version remembered for idle polls (a held poll
 * told by the bell that the mailbox moved, desired-hold.ts, may get here before the epoch did).
 */
export async function handleDesired(
  c: Context<ApiEnv>,
  opts: { fresh?: boolean } = {}
): Promise<Response> {
  const deps = c.get('deps')
  const name = c.req.param('mailbox') ?? ''
  const named = parseIfNoneMatch(c.req.header('if-none-match'))
  const { space, cached } = await mailboxSpace(deps.kv, name)
  const now = Date.now()
  // Read before the manifest: a write after this read moves the epoch past it.
  const epoch = await currentEpoch(deps.kv, 'manifests', now)
  const known = opts.fresh ? undefined : trustedVersion(deps.kv, space.id, epoch, now)
  if (known !== undefined && isNotModified(named, known)) return notModified(versionEtag(known))
  const at = { name, spaceId: space.id, cached, epoch, now }
  const manifest = await readManifest(deps, at, isNotModified(named, 0))
  const version = manifest ? contentVersion(manifest) : 0
  const etag = versionEtag(version)
  if (isNotModified(named, version)) return notModified(etag)
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
