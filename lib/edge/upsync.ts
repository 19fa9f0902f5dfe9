/**
 * Upsynced objects landing in a mailbox: edge-born objects the agent reports are created or
 * updated there as real (stored) objects through the hub client, so validation, managedFields and
 * watches work as for any write, marked with `edge.kcp.io/upsynced: "true"`. An object is taken
 * only when its kind is served in the mailbox and an upsync set of SyncerConfig `the-one` selects
 * it (lib/upsync/match.ts), and never when it is a control kind (an EdgePlacement, SyncTarget,
 * Location, Workspace, CRD...: rejected with its own message whatever the sets say, and the hub
 * would refuse the create too, lib/hub/mailbox-guard.ts); an object already in the mailbox
 * without the marker (a projected copy, or anything else put there) is never overwritten, and a
 * delete removes only marked objects. The edge's uid, resourceVersion, ownerReferences,
 * finalizers and the like are dropped: they mean nothing in the mailbox. Unchanged objects are
 * not written (a repeated report writes nothing). Per object: the registry of the mailbox
 * (cached), one get, and the writes that are needed; per report that wrote any, one move of the
 * mailbox's report mark (lib/store/projection-marks.ts), which the summarize step's pages read.
 */
import type { UpsyncSet } from '../apis/edge-v1alpha1.ts'
import { isApiError } from '../errors.ts'
import type { HubClient } from '../hub/client.ts'
import type { HubDeps } from '../hub/deps.ts'
import { registryForSpace } from '../hub/space-registry.ts'
import type { Space } from '../hub/spaces.ts'
import { dnsLabelErrors } from '../kube/names.ts'
import type { Registry } from '../kube/registry.ts'
import type { ResourceInfo } from '../kube/resource-info.ts'
import { CLUSTER_ANNOTATION, type JsonValue, type KubeObject } from '../kube/types.ts'
import { canonicalJson, isJsonObject } from '../patch/json-values.ts'
import { isUpsyncable, neverUpsynced } from '../upsync/match.ts'
import { type ObjectRef, UPSYNCED_ANNOTATION } from './protocol.ts'
import type { Outcome } from './report-outcome.ts'

export type UpsyncEnv = { deps: HubDeps; client: HubClient }

/** Objects written at the same time within one report. */
const CONCURRENCY = 8

type Applied = { ref: ObjectRef; info: ResourceInfo; obj: Record<string, unknown> }

const isUpsynced = (o: KubeObject) => o.metadata.annotations?.[UPSYNCED_ANNOTATION] === 'true'
const gvrOf = (info: ResourceInfo, version: string) => ({
  group: info.group,
  version,
  resource: info.resource,
})
const foreign = (ref: ObjectRef) =>
  `${ref.resource} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} exists in the mailbox and was not upsynced; it is left alone`

const controlKind = (ref: ObjectRef) =>
  `${ref.resource}${ref.group ? `.${ref.group}` : ''} is a control kind: no upsync set uploads it, a mailbox is never a control plane`

/** The object as it lands in the mailbox (status only for kinds without a status subresource). */
function landed(a: Applied): KubeObject {
  const { metadata, status, ...rest } = a.obj
  const meta = isJsonObject(metadata) ? metadata : {}
  const annotations: Record<string, JsonValue> = {
    ...(isJsonObject(meta.annotations) ? meta.annotations : {}),
    [UPSYNCED_ANNOTATION]: 'true',
  }
  delete annotations[CLUSTER_ANNOTATION]
  const out = {
    ...rest,
    metadata: {
      name: a.ref.name,
      ...(a.ref.namespace ? { namespace: a.ref.namespace } : {}),
      ...(isJsonObject(meta.labels) ? { labels: meta.labels } : {}),
      annotations,
    },
  } as KubeObject
  if (!a.info.subresources.status && status !== undefined) out.status = status as JsonValue
  return out
}

/** What an update could change: everything but server-owned metadata (and status, aside). */
function comparable(o: KubeObject, info: ResourceInfo): string {
  const { apiVersion: _a, metadata, status, ...rest } = o
  const annotations = { ...metadata.annotations }
  delete annotations[CLUSTER_ANNOTATION]
  const own = info.subresources.status ? {} : { status }
  return canonicalJson({ ...rest, ...own, labels: metadata.labels ?? {}, annotations })
}

/** The applied object's reference and resource, or why it cannot be taken. */
function resolve(registry: Registry, obj: Record<string, unknown>): Applied | string {
  const { apiVersion, kind, metadata } = obj
  const name = isJsonObject(metadata) ? metadata.name : undefined
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string')
    return 'an upsynced object needs apiVersion, kind and metadata.name'
  const found = registry.infoForApiVersion(apiVersion, kind)
  if (!found) return `kind ${kind} of ${apiVersion} is not served in the mailbox`
  if (name === '' || name.length > 253)
    return `metadata.name: must be 1 to 253 characters, not ${name.length}`
  const ns = isJsonObject(metadata) ? metadata.namespace : undefined
  const namespace = found.info.namespaced && typeof ns === 'string' ? ns : ''
  if (found.info.namespaced && !namespace)
    return `${found.info.resource} "${name}" needs a namespace`
  const nsErrors = namespace ? dnsLabelErrors(namespace) : []
  if (nsErrors.length > 0) return `metadata.namespace: ${nsErrors.join('; ')}`
  const { group, version } = found
  const ref = { group, version, resource: found.info.resource, namespace, name }
  return { ref, info: found.info, obj }
}

async function applyOne(env: UpsyncEnv, space: string, a: Applied): Promise<string | undefined> {
  const { client } = env
  const gvr = gvrOf(a.info, a.ref.version)
  const existing = await client.get(space, gvr, a.ref.name, a.ref.namespace || undefined)
  if (existing && !isUpsynced(existing)) return foreign(a.ref)
  const want = landed(a)
  let current: KubeObject
  if (!existing) current = await client.create(space, gvr, want)
  else if (comparable(existing, a.info) === comparable(want, a.info)) current = existing
  else {
    const metadata = { ...want.metadata, resourceVersion: existing.metadata.resourceVersion ?? '' }
    current = await client.update(space, gvr, { ...want, metadata })
  }
  const status = a.obj.status
  if (a.info.subresources.status && status !== undefined)
    if (canonicalJson(current.status) !== canonicalJson(status))
      await client.updateStatus(space, gvr, { ...current, status: status as JsonValue })
  return undefined
}

async function deleteOne(
  env: UpsyncEnv,
  space: string,
  registry: Registry,
  ref: ObjectRef
): Promise<string | undefined> {
  const info = registry.byResource(ref.group, ref.resource)
  if (!info) return undefined // not served: nothing of it can be there
  const namespace = info.namespaced ? ref.namespace : ''
  const gvr = gvrOf(info, info.storageVersion)
  const existing = await env.client.get(space, gvr, ref.name, namespace || undefined)
  if (!existing) return undefined
  if (!isUpsynced(existing)) return foreign({ ...ref, namespace })
  await env.client.delete(space, gvr, ref.name, {
    ...(namespace ? { namespace } : {}),
    uid: existing.metadata.uid ?? '',
  })
  return undefined
}

/** Runs `work`, turning an API error into a rejection message; 404 on delete counts as done. */
async function attempt(work: () => Promise<string | undefined>, gone = false) {
  try {
    return await work()
  } catch (e) {
    if (!isApiError(e)) throw e
    return gone && e.code === 404 ? undefined : e.message
  }
}

export async function applyUpsync(
  env: UpsyncEnv,
  mailbox: Space,
  upsync: { apply: readonly Record<string, unknown>[]; delete: readonly ObjectRef[] },
  sets: () => Promise<UpsyncSet[]>
): Promise<Outcome> {
  const out: Outcome = { accepted: 0, rejected: [] }
  if (upsync.apply.length === 0 && upsync.delete.length === 0) return out
  const registry = await registryForSpace(env.deps, mailbox.id)
  const record = (ref: Partial<ObjectRef>, message: string | undefined) => {
    if (message === undefined) out.accepted++
    else out.rejected.push({ ref, message })
  }
  const allowed = upsync.apply.length > 0 ? await sets() : []
  // The writes are counted, so that the mailbox's report mark moves only when one was made.
  let wrote = 0
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const out = await fn(...args)
      wrote++
      return out
    }
  const client = env.client
  const writing: UpsyncEnv = {
    ...env,
    client: {
      ...client,
      create: counted(client.create),
      update: counted(client.update),
      updateStatus: counted(client.updateStatus),
      delete: counted(client.delete),
    },
  }
  const applied = await eachLimited(upsync.apply, async (obj) => {
    const a = resolve(registry, obj)
    if (typeof a === 'string') return [refGuess(obj), a] as const
    const candidate = { ...a.ref, namespaced: a.info.namespaced }
    if (neverUpsynced(a.ref.group, a.ref.resource)) return [a.ref, controlKind(a.ref)] as const
    if (!isUpsyncable(allowed, candidate))
      return [a.ref, 'no upsync set of the SyncerConfig the-one selects this object'] as const
    return [a.ref, await attempt(() => applyOne(writing, mailbox.id, a))] as const
  })
  const deleted = await eachLimited(upsync.delete, async (ref) => {
    return [ref, await attempt(() => deleteOne(writing, mailbox.id, registry, ref), true)] as const
  })
  for (const [ref, message] of [...applied, ...deleted]) record(ref, message)
  // After the writes: a reader that kept what it read of the mailbox learns it changed.
  if (wrote > 0) await env.deps.projections.touchMailbox(mailbox.id)
  return out
}

/** Maps `items` with at most CONCURRENCY calls of `fn` at a time; results in input order. */
async function eachLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
  return results
}

/**
 * What can be said about an object that could not be resolved, for its rejection: its name and
 * namespace when they are within the lengths of an ObjectRef (the agent parses the answer).
 */
function refGuess(obj: Record<string, unknown>): Partial<ObjectRef> {
  const meta = isJsonObject(obj.metadata) ? obj.metadata : {}
  const ref: Partial<ObjectRef> = {}
  if (typeof meta.name === 'string' && meta.name.length <= 253) ref.name = meta.name
  if (typeof meta.namespace === 'string' && meta.namespace.length <= 63)
    ref.namespace = meta.namespace
  return ref
}
