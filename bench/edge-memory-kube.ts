/**
 * A small in-memory edge cluster for the edge benchmark: an implementation of the agent's EdgeKube
 * interface (lib/edge-agent/kube-client.ts) over a Map, NOT a kube API server. A thousand real
 * simulated API servers (the hub code over storage, as lib/edge-sim runs) do not fit in one
 * process next to the center, so each benchmark agent applies to one of these. It serves the
 * built-in Kubernetes resources in discovery, starts with the built-in namespaces, and does what
 * the agent relies on: server-side apply as one field manager (create or replace the content,
 * keep status, uid, a resourceVersion per write, generation bumped when the content changes,
 * managedFields naming the manager), 404 for a namespaced object whose namespace is absent, and
 * deletes with a uid precondition (409); plain create (409 when taken) and update (409 on a stale
 * resourceVersion), which the agent's ownership record uses. `onWrite` sees every object stored
 * by apply: the benchmark's "applied at edge" clock.
 */
import { BUILTIN_KUBE_GROUPS, DEFAULT_BUILTIN_NAMESPACES } from '../lib/apis/builtins.ts'
import type { ObjectRef } from '../lib/edge/protocol.ts'
import type { EdgeKube, ServedResource } from '../lib/edge-agent/kube-client.ts'
import { BUILTIN_RESOURCES } from '../lib/kube/builtin-resources.ts'
import { timestamp } from '../lib/kube/time.ts'
import type { GroupVersionResource, KubeObject } from '../lib/kube/types.ts'
import { RemoteError } from '../lib/remote/remote-error.ts'

export type MemoryKube = EdgeKube & {
  /** Objects stored now. */
  size(): number
}

export type MemoryKubeOptions = {
  /** Called after each create or update with the stored object (a copy). */
  onWrite?: (ref: ObjectRef, obj: KubeObject) => void
  uid?: () => string
  now?: () => Date
}

/** Discovery rows of the built-in Kubernetes resources (kcp's groups left out), preferred first. */
export function builtinServed(): ServedResource[] {
  return BUILTIN_RESOURCES.filter((r) => BUILTIN_KUBE_GROUPS.has(r.group)).flatMap((r) =>
    r.versions.map((version, i) => ({
      group: r.group,
      version,
      resource: r.resource,
      kind: r.kind,
      namespaced: r.namespaced,
      verbs: [...r.verbs],
      preferred: i === 0,
    }))
  )
}

const keyOf = (r: { group: string; resource: string; namespace: string; name: string }) =>
  `${r.group}/${r.resource}/${r.namespace}/${r.name}`
const nsKey = (name: string) => keyOf({ group: '', resource: 'namespaces', namespace: '', name })
const content = (o: KubeObject) => {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = o
  return JSON.stringify(rest)
}

export function createMemoryKube(opts: MemoryKubeOptions = {}): MemoryKube {
  const served = builtinServed()
  const objects = new Map<string, KubeObject>()
  const uid = opts.uid ?? (() => crypto.randomUUID())
  const now = opts.now ?? (() => new Date())
  let rv = 0
  const stamp = () => timestamp(now())
  for (const name of DEFAULT_BUILTIN_NAMESPACES)
    objects.set(nsKey(name), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, uid: uid(), resourceVersion: String(++rv), creationTimestamp: stamp() },
      status: { phase: 'Active' },
    })
  const notFound = (ref: ObjectRef, what = `${ref.resource} "${ref.name}"`) =>
    new RemoteError(404, `${what} not found`, { reason: 'NotFound' })

  return {
    size: () => objects.size,
    async discover() {
      return served
    },
    async get(ref) {
      const o = objects.get(keyOf(ref))
      return o ? structuredClone(o) : undefined
    },
    async list(gvr: GroupVersionResource, namespace?: string) {
      const prefix = `${gvr.group}/${gvr.resource}/${namespace ?? ''}`
      const out: KubeObject[] = []
      for (const [k, o] of objects)
        if (
          namespace === undefined
            ? k.startsWith(`${gvr.group}/${gvr.resource}/`)
            : k.startsWith(`${prefix}/`)
        )
          out.push(structuredClone(o))
      return out
    },
    async apply(ref, body, o) {
      if (ref.namespace && !objects.has(nsKey(ref.namespace)))
        throw notFound(ref, `namespaces "${ref.namespace}"`)
      const key = keyOf(ref)
      const live = objects.get(key)
      const changed = !live || content(live) !== content(body)
      const generation = (live?.metadata.generation ?? 0) + (changed ? 1 : 0)
      const stored: KubeObject = {
        ...structuredClone(body),
        metadata: {
          ...structuredClone(body.metadata),
          name: ref.name,
          ...(ref.namespace ? { namespace: ref.namespace } : {}),
          uid: live?.metadata.uid ?? uid(),
          resourceVersion: String(++rv),
          generation,
          creationTimestamp: live?.metadata.creationTimestamp ?? stamp(),
          managedFields: [
            { manager: o.fieldManager, operation: 'Apply', apiVersion: body.apiVersion },
          ],
        },
      }
      if (live?.status !== undefined) stored.status = live.status
      objects.set(key, stored)
      opts.onWrite?.(ref, structuredClone(stored))
      return structuredClone(stored)
    },
    async create(ref, body) {
      if (ref.namespace && !objects.has(nsKey(ref.namespace)))
        throw notFound(ref, `namespaces "${ref.namespace}"`)
      if (objects.has(keyOf(ref)))
        throw new RemoteError(409, `${ref.resource} "${ref.name}" already exists`, {
          reason: 'AlreadyExists',
        })
      const meta = { uid: uid(), resourceVersion: String(++rv), creationTimestamp: stamp() }
      const stored = { ...structuredClone(body), metadata: { ...body.metadata, ...meta } }
      objects.set(keyOf(ref), stored)
      return structuredClone(stored)
    },
    async update(ref, body) {
      const live = objects.get(keyOf(ref))
      if (!live) throw notFound(ref)
      if (body.metadata.resourceVersion !== live.metadata.resourceVersion)
        throw new RemoteError(409, `${ref.resource} "${ref.name}" was modified`, {
          reason: 'Conflict',
        })
      const meta = { ...body.metadata, uid: live.metadata.uid, resourceVersion: String(++rv) }
      const stored = { ...structuredClone(body), metadata: meta }
      objects.set(keyOf(ref), stored)
      return structuredClone(stored)
    },
    async delete(ref, o) {
      const key = keyOf(ref)
      const live = objects.get(key)
      if (!live) throw notFound(ref)
      if (live.metadata.uid !== o.uid)
        throw new RemoteError(409, `uid precondition failed for ${key}`, { reason: 'Conflict' })
      objects.delete(key)
      if (ref.group === '' && ref.resource === 'namespaces')
        for (const k of [...objects.keys()])
          if (k.split('/')[2] === ref.name && k !== key) objects.delete(k)
    },
  }
}
