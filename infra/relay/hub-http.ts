/**
 * The relay's HTTP side against the hub, over global fetch with an admin bearer token: cross-space
 * `list` and streaming `openWatch` (newline-delimited JSON parsed into an AsyncIterable) of the
 * watched resources, `flush` of reconcile keys to `POST /hooks/<step>`, every EdgePlacement for the
 * event-key mapping, and the espw space id. A non-2xx answer rejects with an error carrying the
 * HTTP `code` (410 means the resourceVersion expired). For an https hub with a private CA, start
 * the process with `NODE_EXTRA_CA_CERTS=<ca.pem>`: Node's fetch takes no per-request CA.
 */
import { z } from 'zod'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { RawWatchEvent } from '../../lib/relay/watch-loop.ts'

export type FetchFn = typeof fetch

export type HubHttpOptions = {
  /** Hub base URL, e.g. https://hub.example:8787 (no trailing path). */
  baseUrl: string
  token: string
  fetch?: FetchFn
  /** Server-side watch timeout; the loop reconnects when a watch ends (default 300). */
  watchTimeoutSeconds?: number
}

export type HubHttp = {
  list(resource: string): Promise<{ items: KubeObject[]; resourceVersion: string }>
  openWatch(
    resource: string,
    resourceVersion: string,
    signal: AbortSignal
  ): AsyncIterable<RawWatchEvent>
  flush(step: string, keys: string[]): Promise<void>
  listEdgePlacements(): Promise<KubeObject[]>
  espwSpaceId(): Promise<string>
}

/** An HTTP failure from the hub; `code` is the status (410: expired resourceVersion). */
export class HubHttpError extends Error {
  override name = 'HubHttpError'
  code: number
  reason: string | undefined
  constructor(code: number, message: string, reason?: string) {
    super(message)
    this.code = code
    this.reason = reason
  }
}

const ObjectSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({}).optional(),
})
const ListSchema = z.looseObject({
  items: z.array(ObjectSchema),
  metadata: z.looseObject({ resourceVersion: z.string() }),
})
const EventSchema = z.object({ type: z.string(), object: ObjectSchema })
const WorkspaceSchema = z.looseObject({ spec: z.looseObject({ cluster: z.string().min(1) }) })
const StatusSchema = z.looseObject({
  message: z.string().optional(),
  reason: z.string().optional(),
})

const GROUPS: Record<string, string> = { workspaces: 'tenancy.kcp.io' }

/** The cross-space path of a watched resource: tenancy.kcp.io for workspaces, else edge.kcp.io. */
export function resourcePath(resource: string): string {
  return `/clusters/*/apis/${GROUPS[resource] ?? 'edge.kcp.io'}/v1alpha1/${resource}`
}

const asKube = (o: z.infer<typeof ObjectSchema>): KubeObject => o as unknown as KubeObject

async function failure(res: Response, what: string): Promise<HubHttpError> {
  const text = await res.text().catch(() => '')
  let status: z.infer<typeof StatusSchema> = {}
  try {
    status = StatusSchema.parse(JSON.parse(text))
  } catch {
    // not a Status body
  }
  const detail = status.message ?? text.slice(0, 200)
  return new HubHttpError(res.status, `${what}: HTTP ${res.status} ${detail}`.trim(), status.reason)
}

/** Splits a byte stream into parsed JSON lines. */
export async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buf = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      buf += done ? decoder.decode() : decoder.decode(value, { stream: true })
      let nl = buf.indexOf('\n')
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim()
        buf = buf.slice(nl + 1)
        if (line) yield JSON.parse(line)
        nl = buf.indexOf('\n')
      }
      if (done) break
    }
    if (buf.trim()) yield JSON.parse(buf)
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}

export function createHubHttp(options: HubHttpOptions): HubHttp {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/+$/, '')
  const auth = { authorization: `Bearer ${options.token}` }
  const timeout = options.watchTimeoutSeconds ?? 300

  const getJson = async (path: string): Promise<unknown> => {
    const res = await doFetch(`${base}${path}`, {
      headers: { ...auth, accept: 'application/json' },
    })
    if (!res.ok) throw await failure(res, `GET ${path}`)
    return res.json()
  }

  const list: HubHttp['list'] = async (resource) => {
    const body = ListSchema.parse(await getJson(resourcePath(resource)))
    return { items: body.items.map(asKube), resourceVersion: body.metadata.resourceVersion }
  }

  async function* openWatch(
    resource: string,
    resourceVersion: string,
    signal: AbortSignal
  ): AsyncGenerator<RawWatchEvent> {
    const q = new URLSearchParams({
      watch: 'true',
      resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeout),
    })
    const path = `${resourcePath(resource)}?${q}`
    const res = await doFetch(`${base}${path}`, { headers: auth, signal })
    if (!res.ok) throw await failure(res, `watch ${resource}`)
    if (!res.body) return
    for await (const line of ndjson(res.body)) {
      const event = EventSchema.parse(line)
      yield { type: event.type, object: asKube(event.object) }
    }
  }

  return {
    list,
    openWatch,
    async flush(step, keys) {
      const path = `/hooks/${encodeURIComponent(step)}`
      const res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ keys }),
      })
      if (!res.ok) throw await failure(res, `POST ${path}`)
      await res.body?.cancel()
    },
    listEdgePlacements: async () => (await list('edgeplacements')).items,
    async espwSpaceId() {
      const ws = await getJson('/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces/espw')
      return WorkspaceSchema.parse(ws).spec.cluster
    },
  }
}
