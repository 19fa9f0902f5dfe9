/**
 * EdgeKube over @kubernetes/client-node: the KubeConfig supplies the server, credentials and TLS
 * (bearer tokens, client certificates, exec plugins, in-cluster service-account tokens, the CA),
 * and client-node's own HTTP library sends the request. We address objects by group, version and
 * resource ourselves (the desired entries name them, so no kind-to-resource lookup is needed) and
 * keep bodies as plain JSON: KubernetesObjectApi would deserialize built-in kinds into typed
 * classes (timestamps become Dates, unknown fields are dropped), which would change the hashes and
 * statuses the agent records and reports. Updates are server-side apply
 * (`application/apply-patch+yaml`, whose JSON form is valid YAML); plain create and update (with
 * the body's resourceVersion as precondition) serve the agent's own ownership record.
 */
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  type KubeConfig,
  RequestContext,
} from '@kubernetes/client-node'
import { z } from 'zod'
import type { ObjectRef } from '../edge/protocol.ts'
import type { GroupVersionResource, KubeObject } from '../kube/types.ts'
import {
  ApiVersionsSchema,
  fromAggregated,
  fromResourceList,
  GroupListSchema,
} from './discovery.ts'
import { type EdgeKube, KubeError, type ServedResource } from './kube-client.ts'

const AGGREGATED_ACCEPT = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',')
const LIST_PAGE = 500

const StatusSchema = z.looseObject({
  message: z.string().optional(),
  reason: z.string().optional(),
})
const ListSchema = z.looseObject({
  items: z.array(z.looseObject({})).nullish(),
  metadata: z.looseObject({ continue: z.string().optional() }).optional(),
})

export type KubeRestOptions = { kubeConfig: KubeConfig; timeoutMs?: number }

type Query = Record<string, string>
type Req = { query?: Query; body?: unknown; contentType?: string; accept?: string }

const enc = encodeURIComponent
const groupPath = (g: GroupVersionResource) =>
  g.group === '' ? `/api/${enc(g.version)}` : `/apis/${enc(g.group)}/${enc(g.version)}`
const nsPath = (namespace: string | undefined) => (namespace ? `/namespaces/${enc(namespace)}` : '')
export const collectionPath = (g: GroupVersionResource, namespace?: string) =>
  `${groupPath(g)}${nsPath(namespace)}/${enc(g.resource)}`
export const objectPath = (r: ObjectRef) => `${collectionPath(r, r.namespace)}/${enc(r.name)}`

function failure(status: number, text: string, what: string): KubeError {
  let parsed: z.infer<typeof StatusSchema> = {}
  try {
    parsed = StatusSchema.parse(JSON.parse(text))
  } catch {
    // not a Status
  }
  const detail = parsed.message ?? text.slice(0, 200)
  return new KubeError(status, `${what}: HTTP ${status} ${detail}`.trim(), parsed.reason)
}

export function createKubeRest(opts: KubeRestOptions): EdgeKube {
  const kc = opts.kubeConfig
  const cluster = kc.getCurrentCluster()
  if (!cluster) throw new Error('the kubeconfig has no current cluster')
  const server = cluster.server.replace(/\/+$/, '')
  const http = new IsomorphicFetchHttpLibrary()
  const timeoutMs = opts.timeoutMs ?? 30_000

  async function send(method: HttpMethod, path: string, req: Req = {}) {
    const q = req.query ? `?${new URLSearchParams(req.query)}` : ''
    const ctx = new RequestContext(`${server}${path}${q}`, method)
    await kc.applySecurityAuthentication(ctx)
    ctx.setHeaderParam('Accept', req.accept ?? 'application/json')
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? 'application/json')
      ctx.setBody(JSON.stringify(req.body))
    }
    ctx.setSignal(AbortSignal.timeout(timeoutMs))
    const what = `${method} ${path}`
    try {
      const res = await http.send(ctx).toPromise()
      return { status: res.httpStatusCode, text: await res.body.text(), what }
    } catch (e) {
      throw new KubeError(0, `${what}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }

  async function call(method: HttpMethod, path: string, req: Req = {}): Promise<unknown> {
    const { status, text, what } = await send(method, path, req)
    if (status < 200 || status > 299) throw failure(status, text, what)
    return text ? JSON.parse(text) : undefined
  }

  async function legacyDiscovery(): Promise<ServedResource[]> {
    const out: ServedResource[] = []
    const core = ApiVersionsSchema.parse(await call(HttpMethod.GET, '/api'))
    for (const [i, v] of core.versions.entries())
      out.push(...fromResourceList(await call(HttpMethod.GET, `/api/${enc(v)}`), i === 0))
    const groups = GroupListSchema.parse(await call(HttpMethod.GET, '/apis'))
    for (const g of groups.groups) {
      const preferred = g.preferredVersion?.version ?? g.versions[0]?.version
      for (const v of g.versions)
        out.push(
          ...fromResourceList(
            await call(HttpMethod.GET, `/apis/${v.groupVersion}`),
            v.version === preferred
          )
        )
    }
    return out
  }

  return {
    async discover() {
      const [core, groups] = await Promise.all([
        call(HttpMethod.GET, '/api', { accept: AGGREGATED_ACCEPT }),
        call(HttpMethod.GET, '/apis', { accept: AGGREGATED_ACCEPT }),
      ])
      const a = fromAggregated(core)
      const b = fromAggregated(groups)
      return a && b ? [...a, ...b] : legacyDiscovery()
    },
    async get(ref) {
      const { status, text, what } = await send(HttpMethod.GET, objectPath(ref))
      if (status === 404) return undefined
      if (status < 200 || status > 299) throw failure(status, text, what)
      return JSON.parse(text) as KubeObject
    },
    async list(gvr, namespace) {
      const items: KubeObject[] = []
      let next: string | undefined
      do {
        const query: Query = { limit: String(LIST_PAGE), ...(next ? { continue: next } : {}) }
        const page = ListSchema.parse(
          await call(HttpMethod.GET, collectionPath(gvr, namespace), { query })
        )
        items.push(...((page.items ?? []) as KubeObject[]))
        next = page.metadata?.continue || undefined
      } while (next)
      return items
    },
    async create(ref, body) {
      return (await call(HttpMethod.POST, collectionPath(ref, ref.namespace), {
        body,
      })) as KubeObject
    },
    async update(ref, body) {
      return (await call(HttpMethod.PUT, objectPath(ref), { body })) as KubeObject
    },
    async apply(ref, body, o) {
      const query: Query = { fieldManager: o.fieldManager, ...(o.force ? { force: 'true' } : {}) }
      return (await call(HttpMethod.PATCH, objectPath(ref), {
        query,
        body,
        contentType: 'application/apply-patch+yaml',
      })) as KubeObject
    },
    async delete(ref, o) {
      await call(HttpMethod.DELETE, objectPath(ref), {
        body: {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: o.uid },
          propagationPolicy: o.propagationPolicy ?? 'Background',
        },
      })
    },
  }
}
