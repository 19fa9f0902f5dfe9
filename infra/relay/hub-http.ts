/**
 * The relay's calls to the hub, over the one remote client (lib/remote/remote-client.ts) with an
 * admin bearer token: `discover` (root's aggregated discovery: every served resource with its
 * verbs, preferred version first), paged `list` and streaming `openWatch` (newline-delimited JSON
 * parsed into an AsyncIterable) of a watch target (cross-space or one space), `flush` of reconcile
 * keys to `POST /hooks/<step>` (answering each key's result, the keys the hook deferred marked as
 * such: hook-answer.ts), every EdgePlacement for the event-key mapping, and the espw space id. A
 * non-2xx answer rejects with a RemoteError carrying the HTTP `code` and the Status `reason` (410 /
 * Expired: the resourceVersion expired). Every call but the watches is bounded, answer and body:
 * a hook call by `timeoutMs` (default 30 s: it may run a whole batch), a read (discovery, one list
 * page, the espw lookup) by `readTimeoutMs` (default a third of that); one that gets no answer in
 * time rejects with a RemoteError of kind `transport`, so a hub that accepts a connection and never
 * answers cannot stall a step's batcher or a watch's list. Watches are long-lived by design: the
 * hub ends each after `watchTimeoutSeconds` and sends a BOOKMARK about every 10 s meanwhile. For
 * an https hub with a private CA, start the process with `NODE_EXTRA_CA_CERTS=<ca.pem>`.
 */
import { z } from 'zod'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { KeyResult } from '../../lib/relay/batcher.ts'
import { hookKeyResults } from '../../lib/relay/hook-answer.ts'
import type { RawWatchEvent } from '../../lib/relay/watch-loop.ts'
import {
  type DiscoveredResource,
  targetPath,
  type WatchTarget,
} from '../../lib/relay/watch-targets.ts'
import type { FetchFn } from '../../lib/remote/node-transport.ts'
import { createRemote, failureOf, readJson } from '../../lib/remote/remote-client.ts'
import { isRemoteError } from '../../lib/remote/remote-error.ts'

export type HubHttpOptions = {
  /** Hub base URL, e.g. https://hub.example:8787 (no trailing path). */
  baseUrl: string
  token: string
  fetch?: FetchFn
  /** Server-side watch timeout; the loop reconnects when a watch ends (default 300). */
  watchTimeoutSeconds?: number
  /** Limit for each hook call, its answer and body (default DEFAULT_HUB_TIMEOUT_MS). */
  timeoutMs?: number
  /** Limit for each read, its answer and body (default a third of `timeoutMs`). */
  readTimeoutMs?: number
}

/** The default limit of one hook call: a batch of up to 500 keys runs within it. */
export const DEFAULT_HUB_TIMEOUT_MS = 30_000

export type HubHttp = {
  discover(): Promise<DiscoveredResource[]>
  list(target: WatchTarget): Promise<{ items: KubeObject[]; resourceVersion: string }>
  openWatch(
    target: WatchTarget,
    resourceVersion: string,
    signal: AbortSignal
  ): AsyncIterable<RawWatchEvent>
  /** Posts keys to the step's hook; resolves with each key's result (undefined if unreadable). */
  flush(step: string, keys: string[]): Promise<KeyResult[] | undefined>
  listEdgePlacements(): Promise<KubeObject[]>
  /** Every SyncTarget of every space (a tenancy event's mailbox keys). */
  listSyncTargets(): Promise<KubeObject[]>
  espwSpaceId(): Promise<string>
}

const ObjectSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({}).optional(),
})
const ListSchema = z.looseObject({
  items: z.array(ObjectSchema),
  metadata: z.looseObject({ resourceVersion: z.string(), continue: z.string().optional() }),
})
const DiscoverySchema = z.looseObject({
  items: z.array(
    z.looseObject({
      metadata: z.looseObject({ name: z.string().optional() }).optional(),
      versions: z.array(
        z.looseObject({
          version: z.string(),
          resources: z
            .array(z.looseObject({ resource: z.string(), verbs: z.array(z.string()).default([]) }))
            .default([]),
        })
      ),
    })
  ),
})
const EventSchema = z.object({ type: z.string(), object: ObjectSchema })
const WorkspaceSchema = z.looseObject({ spec: z.looseObject({ cluster: z.string().min(1) }) })

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'
const EDGE_PLACEMENTS: WatchTarget = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'edgeplacements',
}
const SYNC_TARGETS: WatchTarget = { ...EDGE_PLACEMENTS, resource: 'synctargets' }
const LIST_PAGE = 500

/** The resources of an aggregated discovery document, in its order (preferred versions first). */
export function discoveredResources(doc: unknown): DiscoveredResource[] {
  const out: DiscoveredResource[] = []
  for (const g of DiscoverySchema.parse(doc).items)
    for (const v of g.versions)
      for (const r of v.resources)
        out.push({
          group: g.metadata?.name ?? '',
          version: v.version,
          resource: r.resource,
          verbs: r.verbs,
        })
  return out
}

const asKube = (o: z.infer<typeof ObjectSchema>): KubeObject => o as unknown as KubeObject

/**
 * A hook's answer as JSON, undefined when it is not (every key then counts as done, as before);
 * a body lost midway (timed out, reset) rejects, so the batcher sends the keys again.
 */
async function hookAnswer(res: Response, what: string): Promise<unknown> {
  try {
    return await readJson(res, what)
  } catch (e) {
    if (isRemoteError(e) && e.kind === 'unreadable') return undefined
    throw e
  }
}

export function createHubHttp(options: HubHttpOptions): HubHttp {
  const hookMs = options.timeoutMs ?? DEFAULT_HUB_TIMEOUT_MS
  const remoteWith = (timeoutMs?: number) =>
    createRemote({
      baseUrl: options.baseUrl,
      token: options.token,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    })
  const watcher = remoteWith()
  const reader = remoteWith(options.readTimeoutMs ?? Math.ceil(hookMs / 3))
  const hooks = remoteWith(hookMs)
  const timeout = options.watchTimeoutSeconds ?? 300

  const getJson = (path: string, accept = 'application/json'): Promise<unknown> =>
    reader.call(path, { accept })

  /** Every page; the resourceVersion is the first page's (later changes are replayed). */
  const list: HubHttp['list'] = async (target) => {
    const items: KubeObject[] = []
    let resourceVersion: string | undefined
    let next: string | undefined
    do {
      const q = new URLSearchParams({
        limit: String(LIST_PAGE),
        ...(next ? { continue: next } : {}),
      })
      const body = ListSchema.parse(await getJson(`${targetPath(target)}?${q}`))
      items.push(...body.items.map(asKube))
      resourceVersion ??= body.metadata.resourceVersion
      next = body.metadata.continue || undefined
    } while (next)
    return { items, resourceVersion }
  }

  async function* openWatch(
    target: WatchTarget,
    resourceVersion: string,
    signal: AbortSignal
  ): AsyncGenerator<RawWatchEvent> {
    const query = {
      watch: 'true',
      resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeout),
    }
    const what = `watch ${targetPath(target)}`
    for await (const line of watcher.watch(targetPath(target), { query, signal, what })) {
      const event = EventSchema.parse(line)
      yield { type: event.type, object: asKube(event.object) }
    }
  }

  return {
    async discover() {
      const docs = await Promise.all([
        getJson('/clusters/root/api', AGGREGATED),
        getJson('/clusters/root/apis', AGGREGATED),
      ])
      return docs.flatMap(discoveredResources)
    },
    list,
    openWatch,
    async flush(step, keys) {
      const path = `/hooks/${encodeURIComponent(step)}`
      const what = `POST ${path}`
      // A call with no answer within `hookMs` rejects, and the batcher sends the keys again after
      // its backoff. The hook may have run them all the same (the answer was lost, or late): keys
      // are idempotent, so sending them again is correct.
      const res = await hooks.send(path, { method: 'POST', body: { keys }, what })
      if (!res.ok) throw await failureOf(res, what)
      return hookKeyResults(await hookAnswer(res, what))
    },
    listEdgePlacements: async () => (await list(EDGE_PLACEMENTS)).items,
    listSyncTargets: async () => (await list(SYNC_TARGETS)).items,
    async espwSpaceId() {
      const ws = await getJson('/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces/espw')
      return WorkspaceSchema.parse(ws).spec.cluster
    },
  }
}
