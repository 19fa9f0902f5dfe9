/**
 * The relay's calls to the hub, over the one remote client (lib/remote/remote-client.ts) with an
 * admin bearer token: `discover` (root's aggregated discovery: every served resource with its
 * verbs, preferred version first), paged `list` and streaming `openWatch` (newline-delimited JSON
 * parsed into an AsyncIterable) of a watch target (cross-space or one space), `flush` of reconcile
 * keys to `POST /hooks/<step>` (answering each key's result, the keys the hook deferred marked as
 * such: hook-answer.ts), every EdgePlacement for the event-key mapping, and the espw space id. A
 * non-2xx answer rejects with a RemoteError carrying the HTTP `code` and the Status `reason` (410 /
 * Expired: the resourceVersion expired). For an https hub with a private CA, start the process with
 * `NODE_EXTRA_CA_CERTS=<ca.pem>`.
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
import { createRemote, failureOf } from '../../lib/remote/remote-client.ts'

export type HubHttpOptions = {
  /** Hub base URL, e.g. https://hub.example:8787 (no trailing path). */
  baseUrl: string
  token: string
  fetch?: FetchFn
  /** Server-side watch timeout; the loop reconnects when a watch ends (default 300). */
  watchTimeoutSeconds?: number
}

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

export function createHubHttp(options: HubHttpOptions): HubHttp {
  const remote = createRemote({
    baseUrl: options.baseUrl,
    token: options.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
  const timeout = options.watchTimeoutSeconds ?? 300

  const getJson = (path: string, accept = 'application/json'): Promise<unknown> =>
    remote.call(path, { accept })

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
    for await (const line of remote.watch(targetPath(target), { query, signal, what })) {
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
      const res = await remote.send(`/hooks/${encodeURIComponent(step)}`, {
        method: 'POST',
        body: { keys },
      })
      if (!res.ok) throw await failureOf(res, `POST /hooks/${encodeURIComponent(step)}`)
      return hookKeyResults(await res.json().catch(() => undefined))
    },
    listEdgePlacements: async () => (await list(EDGE_PLACEMENTS)).items,
    async espwSpaceId() {
      const ws = await getJson('/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces/espw')
      return WorkspaceSchema.parse(ws).spec.cluster
    },
  }
}
