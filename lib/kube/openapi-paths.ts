/**
 * The OpenAPI v3 `paths` of one resource at one version, shaped like kube's: the collection
 * (list, create, deletecollection), the all-namespaces list for namespaced resources, the object
 * (get, replace, patch, delete) and the status subresource, each operation carrying
 * `x-kubernetes-action` and `x-kubernetes-group-version-kind`. PATCH, POST and PUT declare the
 * `fieldValidation` query parameter, which is how kubectl learns that the server validates fields
 * (it then sends fieldValidation=Strict instead of validating itself). PATCH deliberately declares
 * no request body: kubectl then computes strategic merge patches from its compiled-in types
 * rather than from these (partial) schemas.
 */
import type { ResourceInfo } from './resource-info.ts'
import type { JsonObject } from './types.ts'

const query = (name: string, type = 'string'): JsonObject => ({
  name,
  in: 'query',
  schema: { type },
})

const pathParam = (name: string): JsonObject => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
})

const WRITE = ['dryRun', 'fieldManager', 'fieldValidation'].map((n) => query(n))
const READ_LIST = [
  query('labelSelector'),
  query('fieldSelector'),
  query('limit', 'integer'),
  query('continue'),
  query('resourceVersion'),
  query('resourceVersionMatch'),
  query('watch', 'boolean'),
  query('allowWatchBookmarks', 'boolean'),
  query('timeoutSeconds', 'integer'),
]
const PATCH = [...WRITE, query('force', 'boolean')]
const DELETE = [query('dryRun'), query('gracePeriodSeconds', 'integer'), query('propagationPolicy')]

/** `CoreV1`, `AppsV1`, `RbacAuthorizationV1`, `EdgeKcpIoV1alpha1`: kube's operationId infix. */
export function groupVersionCamel(group: string, version: string): string {
  const name = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '')
  const camel = name
    .split(/[.-]/)
    .filter((p) => p !== '')
    .map((p) => p[0]?.toUpperCase() + p.slice(1))
    .join('')
  return camel + version[0]?.toUpperCase() + version.slice(1)
}

export type PathContext = {
  info: ResourceInfo
  version: string
  /** Component name of the kind's schema, and of its list. */
  schemaRef: string
  listSchemaRef: string
}

/**
 * One operation: its kube `action`, its operationId `id`, its parameters and the schema `ref` of
 * its answer; `kind` (default the resource's) names the kind it answers with.
 */
type OperationSpec = {
  action: string
  id: string
  params: JsonObject[]
  ref: string
  kind?: string
}

function operation(ctx: PathContext, op: OperationSpec): JsonObject {
  const { action, id: opName, params, ref, kind = ctx.info.kind } = op
  return {
    operationId: opName,
    tags: [groupVersionCamel(ctx.info.group, ctx.version).replace(/^./, (c) => c.toLowerCase())],
    parameters: params,
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: { $ref: ref } } } },
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: ctx.info.group, version: ctx.version, kind },
  }
}

type Ids = { gv: string; id: (verb: string, suffix?: string) => string; nsParams: JsonObject[] }

function collectionItem(ctx: PathContext, ids: Ids): JsonObject {
  const verbs = new Set(ctx.info.verbs)
  const coll: JsonObject = { parameters: ids.nsParams }
  if (verbs.has('list'))
    coll.get = operation(ctx, {
      action: 'list',
      id: ids.id('list'),
      params: READ_LIST,
      ref: ctx.listSchemaRef,
    })
  if (verbs.has('create'))
    coll.post = operation(ctx, {
      action: 'post',
      id: ids.id('create'),
      params: WRITE,
      ref: ctx.schemaRef,
    })
  if (verbs.has('deletecollection')) {
    const params = [...DELETE, ...READ_LIST]
    coll.delete = operation(ctx, {
      action: 'deletecollection',
      id: ids.id('deleteCollection'),
      params,
      ref: ctx.listSchemaRef,
    })
  }
  return coll
}

function objectItem(ctx: PathContext, ids: Ids): JsonObject {
  const verbs = new Set(ctx.info.verbs)
  const item: JsonObject = { parameters: [pathParam('name'), ...ids.nsParams] }
  if (verbs.has('get'))
    item.get = operation(ctx, { action: 'get', id: ids.id('read'), params: [], ref: ctx.schemaRef })
  if (verbs.has('update'))
    item.put = operation(ctx, {
      action: 'put',
      id: ids.id('replace'),
      params: WRITE,
      ref: ctx.schemaRef,
    })
  if (verbs.has('patch'))
    item.patch = operation(ctx, {
      action: 'patch',
      id: ids.id('patch'),
      params: PATCH,
      ref: ctx.schemaRef,
    })
  if (verbs.has('delete'))
    item.delete = operation(ctx, {
      action: 'delete',
      id: ids.id('delete'),
      params: DELETE,
      ref: ctx.schemaRef,
    })
  return item
}

function statusItem(ctx: PathContext, ids: Ids): JsonObject {
  const ref = ctx.schemaRef
  return {
    parameters: [pathParam('name'), ...ids.nsParams],
    get: operation(ctx, { action: 'get', id: ids.id('read', 'Status'), params: [], ref }),
    put: operation(ctx, { action: 'put', id: ids.id('replace', 'Status'), params: WRITE, ref }),
    patch: operation(ctx, { action: 'patch', id: ids.id('patch', 'Status'), params: PATCH, ref }),
  }
}

/** The path items of one resource at one version, keyed by path template. */
export function resourcePaths(ctx: PathContext): Record<string, JsonObject> {
  const { info, version } = ctx
  const gv = groupVersionCamel(info.group, version)
  const ns = info.namespaced ? 'Namespaced' : ''
  const ids: Ids = {
    gv,
    id: (verb, suffix = '') => `${verb}${gv}${ns}${info.kind}${suffix}`,
    nsParams: info.namespaced ? [pathParam('namespace')] : [],
  }
  const prefix = info.group === '' ? `/api/${version}` : `/apis/${info.group}/${version}`
  const collection = info.namespaced
    ? `${prefix}/namespaces/{namespace}/${info.resource}`
    : `${prefix}/${info.resource}`
  const out: Record<string, JsonObject> = { [collection]: collectionItem(ctx, ids) }
  if (info.namespaced && info.verbs.includes('list')) {
    const opId = `list${gv}${info.kind}ForAllNamespaces`
    out[`${prefix}/${info.resource}`] = {
      get: operation(ctx, { action: 'list', id: opId, params: READ_LIST, ref: ctx.listSchemaRef }),
    }
  }
  out[`${collection}/{name}`] = objectItem(ctx, ids)
  if (info.subresources.status) out[`${collection}/{name}/status`] = statusItem(ctx, ids)
  return out
}
