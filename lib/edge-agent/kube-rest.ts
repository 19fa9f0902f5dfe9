/**
 * EdgeKube over the one remote client (lib/remote/remote-client.ts), the KubeConfig supplying the
 * server and, before each request, the credentials and TLS through client-node's
 * `applyToHTTPSOptions` (bearer tokens, client certificates, exec plugins, in-cluster
 * service-account tokens, the CA, insecure-skip-tls-verify, a proxy). We address objects by group,
 * version and resource ourselves (the desired entries name them, so no kind-to-resource lookup is
 * needed) and keep bodies as plain JSON: client-node's typed APIs would deserialize built-in kinds
 * into classes (timestamps become Dates, unknown fields are dropped), which would change the hashes
 * and statuses the agent records and reports. Updates are server-side apply
 * (`application/apply-patch+yaml`, whose JSON form is valid YAML); plain create and update (with
 * the body's resourceVersion as precondition) serve the agent's own ownership record. Failures
 * reject with a RemoteError. `as(user)` is a client over the same KubeConfig that sends
 * `Impersonate-User: <user>` on each request.
 */
import type { RequestOptions } from 'node:https'
import type { KubeConfig } from '@kubernetes/client-node'
import { z } from 'zod'
import type { ObjectRef } from '../edge/protocol.ts'
import type { GroupVersionResource, KubeObject } from '../kube/types.ts'
import { nodeTransport } from '../remote/node-transport.ts'
import { createRemote, failureOf, type RemoteRequest, readJson } from '../remote/remote-client.ts'
import {
  ApiVersionsSchema,
  fromAggregated,
  fromResourceList,
  GroupListSchema,
} from './discovery.ts'
import type { EdgeKube, ServedResource } from './kube-client.ts'

const AGGREGATED_ACCEPT = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',')
const LIST_PAGE = 500

const ListSchema = z.looseObject({
  items: z.array(z.looseObject({})).nullish(),
  metadata: z.looseObject({ continue: z.string().optional() }).optional(),
})

export type KubeRestOptions = {
  kubeConfig: KubeConfig
  timeoutMs?: number
  /** Sent as `Impersonate-User` on every request (see `as`). */
  impersonate?: string
}

const enc = encodeURIComponent
const groupPath = (g: GroupVersionResource) =>
  g.group === '' ? `/api/${enc(g.version)}` : `/apis/${enc(g.group)}/${enc(g.version)}`
const nsPath = (namespace: string | undefined) => (namespace ? `/namespaces/${enc(namespace)}` : '')
export const collectionPath = (g: GroupVersionResource, namespace?: string) =>
  `${groupPath(g)}${nsPath(namespace)}/${enc(g.resource)}`
export const objectPath = (r: ObjectRef) => `${collectionPath(r, r.namespace)}/${enc(r.name)}`

export function createKubeRest(opts: KubeRestOptions): EdgeKube {
  const kc = opts.kubeConfig
  const cluster = kc.getCurrentCluster()
  if (!cluster) throw new Error('the kubeconfig has no current cluster')
  const remote = createRemote({
    baseUrl: cluster.server,
    fetch: nodeTransport(async () => {
      const o: RequestOptions = {}
      await kc.applyToHTTPSOptions(o)
      return o
    }),
    timeoutMs: opts.timeoutMs ?? 30_000,
  })
  const headers: Record<string, string> = opts.impersonate
    ? { 'impersonate-user': opts.impersonate }
    : {}
  const call = (path: string, req: RemoteRequest = {}) =>
    remote.call(path, { accept: 'application/json', headers, ...req })

  async function legacyDiscovery(): Promise<ServedResource[]> {
    const out: ServedResource[] = []
    const core = ApiVersionsSchema.parse(await call('/api'))
    for (const [i, v] of core.versions.entries())
      out.push(...fromResourceList(await call(`/api/${enc(v)}`), i === 0))
    const groups = GroupListSchema.parse(await call('/apis'))
    for (const g of groups.groups) {
      const preferred = g.preferredVersion?.version ?? g.versions[0]?.version
      for (const v of g.versions)
        out.push(
          ...fromResourceList(await call(`/apis/${v.groupVersion}`), v.version === preferred)
        )
    }
    return out
  }

  return {
    async discover() {
      const [core, groups] = await Promise.all([
        call('/api', { accept: AGGREGATED_ACCEPT }),
        call('/apis', { accept: AGGREGATED_ACCEPT }),
      ])
      const a = fromAggregated(core)
      const b = fromAggregated(groups)
      return a && b ? [...a, ...b] : legacyDiscovery()
    },
    async get(ref) {
      const path = objectPath(ref)
      const res = await remote.send(path, { accept: 'application/json', headers })
      if (res.status === 404) {
        await res.body?.cancel()
        return undefined
      }
      if (!res.ok) throw await failureOf(res, `GET ${path}`)
      return (await readJson(res, `GET ${path}`)) as KubeObject
    },
    async list(gvr, namespace) {
      const items: KubeObject[] = []
      let next: string | undefined
      do {
        const query = { limit: String(LIST_PAGE), ...(next ? { continue: next } : {}) }
        const page = ListSchema.parse(await call(collectionPath(gvr, namespace), { query }))
        items.push(...((page.items ?? []) as KubeObject[]))
        next = page.metadata?.continue || undefined
      } while (next)
      return items
    },
    async create(ref, body) {
      return (await call(collectionPath(ref, ref.namespace), {
        method: 'POST',
        body,
      })) as KubeObject
    },
    async update(ref, body) {
      return (await call(objectPath(ref), { method: 'PUT', body })) as KubeObject
    },
    async apply(ref, body, o) {
      const query = { fieldManager: o.fieldManager, ...(o.force ? { force: 'true' } : {}) }
      return (await call(objectPath(ref), {
        method: 'PATCH',
        query,
        body,
        contentType: 'application/apply-patch+yaml',
      })) as KubeObject
    },
    as: (user) => createKubeRest({ ...opts, impersonate: user }),
    async delete(ref, o) {
      await call(objectPath(ref), {
        method: 'DELETE',
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
