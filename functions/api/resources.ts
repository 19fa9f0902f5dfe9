/**
 * Dispatches a request for a resource path to the hub verbs: GET (get, list, watch), POST
 * (create), PUT (update), PATCH, DELETE (one object or a collection), on the object or its status
 * subresource. It resolves the resource in the space's registry first: an unknown resource is a
 * 404 naming the group and version the client used; a verb the resource does not list is kube's
 * 405 (verbs.ts). A write's options are checked before its body is decoded (write-options.ts),
 * a delete's before anything is listed or deleted (lib/hub/delete-options.ts). Bodies are read
 * by media type as kube negotiates them (body.ts): object bodies as JSON, YAML or protobuf,
 * patches by patch type. Root's Tokens are admin only and created by issuing (tokens.ts). On a hub
 * that authorizes by RBAC, roles and bindings pass kube's escalation check and the reviews are
 * answered by the RBAC authorizer, and serviceaccounts/token issues tokens (TokenRequest). In
 * the cross-workspace view a Table names each row's workspace (space-column.ts). What needs a
 * running container is refused at once, at the center naming the edges where to ask: a Pod's
 * log, exec, attach and port-forward, and kubectl's lookup of a workload's pods (pod-lookup.ts).
 */
import { answerReview } from '../../lib/auth/reviews.ts'
import type { Principal } from '../../lib/auth/tokens.ts'
import { badRequest, methodNotAllowed, notFound } from '../../lib/errors.ts'
import { createObject } from '../../lib/hub/create.ts'
import { type DeleteOptions, deleteObject, parseDeleteOptions } from '../../lib/hub/delete.ts'
import { deleteListed } from '../../lib/hub/delete-collection.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { WriteOptions } from '../../lib/hub/options.ts'
import { patchObject } from '../../lib/hub/patch.ts'
import { getObject, listObjects } from '../../lib/hub/read.ts'
import { getScale, writeScale } from '../../lib/hub/scale.ts'
import { registryForSpace } from '../../lib/hub/space-registry.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import type { Target } from '../../lib/hub/target.ts'
import { needsRuntime, tokenUnavailable } from '../../lib/hub/unavailable-subresources.ts'
import { updateObject } from '../../lib/hub/update.ts'
import type { ResourcePath } from '../../lib/kube/request-path.ts'
import { apiVersionOf } from '../../lib/kube/request-path.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { issueServiceAccountToken } from '../../lib/rbac/service-account-token.ts'
import type { UserInfo } from '../../lib/rbac/types.ts'
import { readDeleteBody, readObjectBody, readPatchBody } from './body.ts'
import { patchTypeOf } from './media-type.ts'
import { refusePodLookup } from './pod-lookup.ts'
import { type ApiQuery, deleteQuery, listParams } from './query.ts'
import { escalationCheck, rbacReview } from './rbac-writes.ts'
import { json, listBody } from './respond.ts'
import { runtimeRefusal } from './runtime-refusal.ts'
import { objectPredicate } from './selectors.ts'
import { spaceColumn } from './space-column.ts'
import { authorizeStepOwned } from './step-owned.ts'
import { listTable, negotiateTable, objectTable, tableWatchEvents } from './table.ts'
import { authorizeTokens, createToken, isTokenResource } from './tokens.ts'
import { managerFromUserAgent } from './user-agent.ts'
import { assertServedVerb, methodNotAllowedStatus } from './verbs.ts'
import { watchResponse } from './watch.ts'
import { assertWriteOptions } from './write-options.ts'

export type ResourceRequest = {
  deps: HubDeps
  space: Space
  /** Cross-space view (`/clusters/*`): list and watch only. */
  allSpaces: boolean
  path: ResourcePath
  query: ApiQuery
  req: Request
  baseUrl: string
  principal: Principal
  /** How a watch's events are charged to its token's share (fair-share.ts); absent, never. */
  pace?: (events: number) => number
  /** The kube user it runs as, on a hub that authorizes by RBAC (rbac-gate.ts). */
  user?: UserInfo
}

async function resolveTarget(r: ResourceRequest): Promise<Target> {
  const { path } = r
  const registry = await registryForSpace(r.deps, r.space.id)
  const info = registry.byResource(path.group, path.resource)
  if (!info?.versions.includes(path.version))
    throw notFound(path.resource, {
      group: path.group,
      kind: path.resource,
      ...(path.name ? { name: path.name } : {}),
    })
  const t: Target = { space: r.space, info, version: path.version }
  if (info.namespaced && path.namespace !== undefined) t.namespace = path.namespace
  if (!info.namespaced && path.namespace !== undefined)
    throw notFound(path.resource, { group: path.group, kind: path.resource })
  if (path.name !== undefined) t.name = path.name
  return t
}

function writeOptions(r: ResourceRequest, defaultManager: string): WriteOptions {
  const q = r.query
  return {
    dryRun: q.dryRun,
    fieldManager:
      q.fieldManager ?? managerFromUserAgent(r.req.headers.get('user-agent')) ?? defaultManager,
    fieldValidation: q.fieldValidation,
    force: q.force,
    baseUrl: r.baseUrl,
    // A client's create counts against its space's SpaceQuotas and is refused past them.
    enforceQuota: true,
    ...(r.user ? escalationCheck(r.deps, r.user, r.path) : {}),
  }
}

/**
 * The DeleteOptions of a DELETE, as kube reads them: the body's when there is one, else the
 * query's; checked (400, 422) before anything is listed or deleted.
 */
async function deleteOptions(r: ResourceRequest): Promise<DeleteOptions> {
  return parseDeleteOptions(await readDeleteBody(r.req), () => deleteQuery(r.query), r.baseUrl)
}

/** GET on a collection: a watch, or a list (as a Table when the client asks for one). */
async function readCollection(
  r: ResourceRequest,
  t: Target,
  predicate: ((obj: KubeObject) => boolean) | undefined
): Promise<Response> {
  const table = negotiateTable(r.req, r.deps.site)
  const spaces = table && r.allSpaces ? spaceColumn(r.deps.kv, r.deps.now) : undefined
  if (r.query.watch) await refusePodLookup(r.deps, t, r)
  if (r.query.watch)
    return watchResponse(r.deps, {
      ...(table
        ? {
            transform: tableWatchEvents(t, {
              ...table,
              now: r.deps.now,
              ...(spaces ? { spaces } : {}),
            }),
          }
        : {}),
      ...(spaces ? { prepare: spaces.prepare } : {}),
      target: t,
      allSpaces: r.allSpaces,
      ...listParams(r.query),
      predicate: predicate ?? (() => true),
      bookmarks: r.query.allowWatchBookmarks,
      ...(r.query.timeoutSeconds !== undefined ? { timeoutSeconds: r.query.timeoutSeconds } : {}),
      ...(r.pace ? { pace: r.pace } : {}),
    })
  const res = await listObjects(
    r.deps,
    t,
    {
      ...(predicate ? { predicate } : {}),
      ...listParams(r.query),
      // A client may watch from this list's version (kubectl get -w, every informer).
      watchable: true,
      ...(r.query.limit ? { limit: r.query.limit } : {}),
      ...(r.query.continue ? { continue: r.query.continue } : {}),
    },
    r.allSpaces
  )
  if (spaces) await spaces.prepare(res.items)
  if (table)
    return json(listTable(t, res, { ...table, now: r.deps.now(), ...(spaces ? { spaces } : {}) }))
  return json(listBody(apiVersionOf(t.info.group, t.version), t.info.listKind, res))
}

async function collection(r: ResourceRequest, t: Target): Promise<Response> {
  const method = r.req.method
  const predicate = objectPredicate(t.info.kind, r.query.labelSelector, r.query.fieldSelector)
  if (method === 'GET') return readCollection(r, t, predicate)
  if (r.allSpaces) throw methodNotAllowed('the cross-workspace view only supports list and watch')
  if (method === 'POST') {
    assertWriteOptions('Create', r.query)
    if (isTokenResource(t.info)) return createToken(r.deps, t, r.req, writeOptions(r, 'unknown'))
    const res = await createObject(r.deps, t, {
      body: await readObjectBody(r.req),
      opts: writeOptions(r, 'unknown'),
    })
    return json(res.object, 201, res.warnings)
  }
  if (method === 'DELETE') {
    const opts = await deleteOptions(r)
    const list = await listObjects(r.deps, t, predicate ? { predicate } : {})
    // Within the budget: what does not fit is answered 429 with every deleted object logged.
    const items = await deleteListed(
      list.items,
      (o) => deleteObject(r.deps, { ...t, name: o.metadata.name ?? '' }, opts),
      { now: () => r.deps.now().getTime() }
    )
    return json(
      listBody(apiVersionOf(t.info.group, t.version), t.info.listKind, {
        items,
        resourceVersion: list.resourceVersion,
      })
    )
  }
  throw methodNotAllowedStatus()
}

async function scale(r: ResourceRequest, t: Target): Promise<Response> {
  const opts = writeOptions(r, 'unknown')
  switch (r.req.method) {
    case 'GET':
      return json(await getScale(r.deps, t))
    case 'PUT':
      assertWriteOptions('Update', r.query)
      return json((await writeScale(r.deps, t, { body: await readObjectBody(r.req), opts })).object)
    case 'PATCH': {
      const type = patchTypeOf(r.req.headers.get('content-type'))
      assertWriteOptions('Patch', r.query, type)
      return json(
        (
          await writeScale(r.deps, t, {
            body: await readPatchBody(r.req, type),
            opts,
            patchType: type,
          })
        ).object
      )
    }
    default:
      throw methodNotAllowedStatus()
  }
}

async function single(r: ResourceRequest, t: Target): Promise<Response> {
  const sub = r.path.subresource
  if (sub === 'scale' && t.info.subresources.scale) return scale(r, t)
  if (sub !== undefined && needsRuntime(sub)) throw await runtimeRefusal(r.deps, t, sub)
  if (sub === 'token' && t.info.resource === 'serviceaccounts') return serviceAccountToken(r, t)
  if (sub !== undefined && (sub !== 'status' || !t.info.subresources.status))
    throw notFound(`${t.info.resource}/${sub}`, {
      group: t.info.group,
      kind: t.info.resource,
      name: t.name ?? '',
    })
  const status = sub === 'status' ? 'status' : undefined
  switch (r.req.method) {
    case 'GET': {
      const table = status ? undefined : negotiateTable(r.req, r.deps.site)
      const obj = await getObject(r.deps, t, r.query.resourceVersion)
      return json(table ? objectTable(t, obj, table, r.deps.now()) : obj)
    }
    case 'PUT': {
      assertWriteOptions('Update', r.query)
      const res = await updateObject(r.deps, t, {
        body: await readObjectBody(r.req),
        opts: writeOptions(r, 'unknown'),
        sub: status,
      })
      return json(res.object, 200, res.warnings)
    }
    case 'PATCH': {
      const type = patchTypeOf(r.req.headers.get('content-type'))
      assertWriteOptions('Patch', r.query, type)
      // Apply names its manager itself: the User-Agent default is for the other verbs only.
      if (type === 'application/apply-patch+yaml' && !r.query.fieldManager)
        throw badRequest('fieldManager is required for apply requests')
      const res = await patchObject(r.deps, t, {
        patch: await readPatchBody(r.req, type),
        type,
        opts: writeOptions(r, 'unknown'),
        sub: status,
      })
      return json(res.object, res.created ? 201 : 200, res.warnings)
    }
    case 'DELETE': {
      if (status) throw methodNotAllowedStatus()
      return json(await deleteObject(r.deps, t, await deleteOptions(r)))
    }
    default:
      throw methodNotAllowedStatus()
  }
}

function review(r: ResourceRequest, t: Target): Promise<Response> {
  // only the collection's create is served (a named path may still carry a subresource here)
  if (t.name !== undefined) throw methodNotAllowedStatus()
  assertWriteOptions('Create', r.query)
  const user = r.user
  return readObjectBody(r.req).then(async (body) =>
    json(
      user
        ? await rbacReview(r.deps, user, t.info.kind, body)
        : answerReview(t.info.kind, body, r.principal, r.space.path),
      201
    )
  )
}

/** `kubectl create token`: issued by a hub that authorizes by RBAC, refused elsewhere. */
async function serviceAccountToken(r: ResourceRequest, t: Target): Promise<Response> {
  if (!r.user || r.req.method !== 'POST') throw tokenUnavailable(r.deps.site ?? 'center')
  const account = { namespace: t.namespace ?? '', name: t.name ?? '' }
  return json(await issueServiceAccountToken(r.deps, account, await readObjectBody(r.req)), 201)
}

export async function handleResource(r: ResourceRequest): Promise<Response> {
  const t = await resolveTarget(r)
  authorizeTokens(t, r.principal)
  authorizeStepOwned(t, r.req.method, r.principal)
  if (r.path.subresource === undefined)
    assertServedVerb(t.info, r.req.method, t.name !== undefined, r.query.watch)
  if (t.info.verbs.length === 1 && t.info.verbs[0] === 'create' && t.info.kind.endsWith('Review'))
    return review(r, t)
  if (t.name === undefined) return collection(r, t)
  if (r.allSpaces) throw badRequest('the cross-workspace view only serves collections')
  return single(r, t)
}
