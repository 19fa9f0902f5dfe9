/**
 * An in-process kube client over the hub's verbs, for the reconcile steps that run inside the
 * Worker: the same semantics as the HTTP API (validation, hooks, resourceVersion preconditions,
 * garbage collection) without a network hop. Spaces are named by path or id; resources by
 * group/version/resource. Writes use the object's resourceVersion as precondition, so a step that
 * read stale state gets a Conflict instead of overwriting newer data; `applyStatus` instead sends
 * only the fields its manager owns (server-side apply), so it needs no precondition.
 */
import { type ApiError, isApiError, notFound } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { createObject } from './create.ts'
import { deleteObject } from './delete.ts'
import type { HubDeps } from './deps.ts'
import { defaultWriteOptions } from './options.ts'
import { patchObject } from './patch.ts'
import { getObject, listObjects } from './read.ts'
import { registryForSpace } from './space-registry.ts'
import { resolveSpace, type Space } from './spaces.ts'
import { objectKey, servedAt, type Target } from './target.ts'
import { updateObject } from './update.ts'
import type { Propagation } from './write.ts'

export type Gvr = { group: string; version: string; resource: string }

export type ListFilter = { namespace?: string; predicate?: (obj: KubeObject) => boolean }

export type HubClient = {
  space(pathOrId: string): Promise<Space>
  get(space: string, gvr: Gvr, name: string, namespace?: string): Promise<KubeObject | undefined>
  /**
   * Cluster-scoped objects of one resource by name, read together (a batch's read ahead): the
   * objects found, by name.
   */
  getMany(space: string, gvr: Gvr, names: readonly string[]): Promise<Map<string, KubeObject>>
  /** Lists in one space, or in every space with `'*'`. */
  list(space: string, gvr: Gvr, filter?: ListFilter): Promise<KubeObject[]>
  create(space: string, gvr: Gvr, obj: KubeObject): Promise<KubeObject>
  update(space: string, gvr: Gvr, obj: KubeObject): Promise<KubeObject>
  updateStatus(space: string, gvr: Gvr, obj: KubeObject): Promise<KubeObject>
  /**
   * Server-side apply of `config` (apiVersion, kind, metadata.name, the status fields the manager
   * owns) to the status subresource as `fieldManager`, taking its fields over from others (force).
   * Fields the manager applied before and leaves out are removed; an apply that changes nothing
   * writes nothing (`written` false). Undefined when the object is absent, or is another one
   * than a uid in `config` names (re-created meanwhile).
   */
  applyStatus(
    space: string,
    gvr: Gvr,
    config: KubeObject,
    opts: { fieldManager: string }
  ): Promise<{ object: KubeObject; written: boolean } | undefined>
  delete(
    space: string,
    gvr: Gvr,
    name: string,
    opts?: {
      namespace?: string
      uid?: string
      resourceVersion?: string
      propagationPolicy?: Propagation
    }
  ): Promise<void>
}

const APPLY = 'application/apply-patch+yaml'

const isUidMismatch = (e: ApiError) =>
  e.code === 422 && (e.details?.causes ?? []).some((c) => c.field === 'metadata.uid')

export function createHubClient(
  deps: HubDeps,
  opts: { fieldManager: string; baseUrl?: string }
): HubClient {
  const write = defaultWriteOptions({
    fieldManager: opts.fieldManager,
    baseUrl: opts.baseUrl ?? '',
    fieldValidation: 'Strict',
  })
  // Resolutions in flight are shared: a step's snapshot lists some forty resources of one space
  // at once, and each resolved the space again (two key-value reads each).
  const spaces = new Map<string, Promise<Space>>()
  const space = (ref: string) => {
    const hit = spaces.get(ref)
    if (hit) return hit
    const s = resolveSpace(deps.kv, ref)
    spaces.set(ref, s)
    s.catch(() => spaces.delete(ref))
    return s
  }
  const target = async (
    ref: string,
    gvr: Gvr,
    name?: string,
    namespace?: string
  ): Promise<Target> => {
    const s = ref === '*' ? await space('root') : await space(ref)
    const info = (await registryForSpace(deps, s.id)).byResource(gvr.group, gvr.resource)
    if (!info?.versions.includes(gvr.version))
      throw notFound(gvr.resource, { group: gvr.group, kind: gvr.resource })
    const t: Target = { space: s, info, version: gvr.version }
    if (name !== undefined) t.name = name
    if (namespace !== undefined && info.namespaced) t.namespace = namespace
    return t
  }
  return {
    space,
    async get(ref, gvr, name, namespace) {
      try {
        return await getObject(deps, await target(ref, gvr, name, namespace))
      } catch (e) {
        if (isApiError(e) && e.code === 404) return undefined
        throw e
      }
    },
    async getMany(ref, gvr, names) {
      const t = await target(ref, gvr)
      const found = await deps.objects.getMany(names.map((name) => objectKey(t, name)))
      const out = new Map<string, KubeObject>()
      found.forEach((obj, i) => {
        if (obj) out.set(names[i] as string, servedAt(t, obj))
      })
      return out
    },
    async list(ref, gvr, filter = {}) {
      const t = await target(ref, gvr, undefined, filter.namespace)
      const q = { itemsOnly: true, ...(filter.predicate ? { predicate: filter.predicate } : {}) }
      return (await listObjects(deps, t, q, ref === '*')).items
    },
    async create(ref, gvr, obj) {
      return (
        await createObject(deps, await target(ref, gvr, undefined, obj.metadata.namespace), {
          body: obj,
          opts: write,
        })
      ).object
    },
    async update(ref, gvr, obj) {
      const t = await target(ref, gvr, obj.metadata.name, obj.metadata.namespace)
      return (await updateObject(deps, t, { body: obj, opts: write })).object
    },
    async updateStatus(ref, gvr, obj) {
      const t = await target(ref, gvr, obj.metadata.name, obj.metadata.namespace)
      return (await updateObject(deps, t, { body: obj, opts: write, sub: 'status' })).object
    },
    async applyStatus(ref, gvr, config, o) {
      const t = await target(ref, gvr, config.metadata.name, config.metadata.namespace)
      const apply = { ...write, fieldManager: o.fieldManager, force: true }
      try {
        const done = await patchObject(deps, t, {
          patch: config,
          type: APPLY,
          opts: apply,
          sub: 'status',
        })
        return { object: done.object, written: !done.unchanged }
      } catch (e) {
        if (isApiError(e) && (e.code === 404 || isUidMismatch(e))) return undefined
        throw e
      }
    },
    async delete(ref, gvr, name, o = {}) {
      const t = await target(ref, gvr, name, o.namespace)
      const preconditions = {
        ...(o.uid ? { uid: o.uid } : {}),
        ...(o.resourceVersion ? { resourceVersion: o.resourceVersion } : {}),
      }
      await deleteObject(deps, t, {
        dryRun: false,
        baseUrl: write.baseUrl,
        preconditions,
        ...(o.propagationPolicy ? { propagationPolicy: o.propagationPolicy } : {}),
      })
    },
  }
}
