/**
 * The upsync half of a report: lists the edge objects the upsync targets (upsync-sets.ts) select,
 * leaves out the ones the agent downsynced or the mailbox has a copy of, and the per-cluster system
 * objects, and turns each into the body the mailbox gets — at the edge's preferred version, with
 * metadata reduced to name, namespace, labels and annotations (no uid, resourceVersion,
 * managedFields, ownerReferences, finalizers, kcp system keys or the agent's marker) and its
 * status kept, so the mailbox copy shows it. Compared with what the center last accepted
 * (report-state.ts): new or changed objects go in `apply`, vanished ones in `delete`. A resource
 * whose list fails sends no deletes this poll (a failed read never deletes anything).
 */
import { isSystemInfrastructure } from '../apis/categories.ts'
import type { ObjectRef } from '../edge/protocol.ts'
import type { JsonValue, KubeObject, ObjectMeta } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import { isSystemKey } from '../placement/annotations.ts'
import { selectsNamed } from '../upsync/match.ts'
import type { EdgeKube, ServedResource } from './kube-client.ts'
import { MARKER_ANNOTATIONS } from './marker.ts'
import { apiVersionOf, hashOf, refKey } from './refs.ts'
import type { ReportState } from './report-state.ts'
import type { UpsyncTarget } from './upsync-sets.ts'

export type UpsyncItem = { key: string; ref: ObjectRef; body: KubeObject; hash: string }
export type UpsyncChanges = { apply: UpsyncItem[]; delete: { key: string; ref: ObjectRef }[] }

function cleanMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  const out = Object.entries(m ?? {}).filter(([k]) => !isSystemKey(k) && !MARKER_ANNOTATIONS.has(k))
  return out.length > 0 ? Object.fromEntries(out) : undefined
}

export function upsyncBody(obj: KubeObject, served: ServedResource): KubeObject {
  const m = obj.metadata
  const metadata: ObjectMeta = { name: m.name ?? '' }
  if (m.namespace) metadata.namespace = m.namespace
  const labels = cleanMap(m.labels)
  if (labels) metadata.labels = labels
  const annotations = cleanMap(m.annotations)
  if (annotations) metadata.annotations = annotations
  const body: KubeObject = {
    apiVersion: apiVersionOf(served.group, served.version),
    kind: served.kind,
    metadata,
  }
  for (const [k, v] of Object.entries(obj))
    if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && v !== undefined)
      body[k] = v as JsonValue
  return body
}

async function listTarget(kube: EdgeKube, t: UpsyncTarget): Promise<KubeObject[]> {
  const gvr = t.served
  if (t.allNamespaces) return kube.list(gvr)
  const out: KubeObject[] = []
  for (const ns of [...t.namespaces].sort()) out.push(...(await kube.list(gvr, ns)))
  return out
}

const grOf = (r: { group: string; resource: string }) => `${r.group}/${r.resource}`

/**
 * One collection: the `targets` to list, which keys are `downsynced` (never upsynced), what the
 * center last accepted (`previous`) and where list failures are logged.
 */
export type UpsyncCollection = {
  targets: readonly UpsyncTarget[]
  downsynced: (key: string, ref: ObjectRef) => boolean
  previous: ReportState['upsynced']
  log: Logger
}

export async function collectUpsync(kube: EdgeKube, c: UpsyncCollection): Promise<UpsyncChanges> {
  const { targets, downsynced, previous, log } = c
  const current = new Map<string, UpsyncItem>()
  const failed = new Set<string>()
  for (const t of targets) {
    const s = t.served
    let objects: KubeObject[]
    try {
      objects = await listTarget(kube, t)
    } catch (e) {
      failed.add(grOf(s))
      log.warn('upsync list failed', { resource: grOf(s), err: e })
      continue
    }
    for (const o of objects) {
      const namespace = o.metadata.namespace ?? ''
      const name = o.metadata.name ?? ''
      if (o.metadata.deletionTimestamp) continue
      if (!t.sets.some((set) => selectsNamed(set, s.namespaced, namespace, name))) continue
      const ref: ObjectRef = {
        group: s.group,
        version: s.version,
        resource: s.resource,
        namespace,
        name,
      }
      const key = refKey(ref)
      if (downsynced(key, ref) || isSystemInfrastructure(s.group, s.resource, o)) continue
      const body = upsyncBody(o, s)
      current.set(key, { key, ref, body, hash: hashOf(body) })
    }
  }
  return {
    apply: [...current.values()].filter((i) => previous[i.key]?.hash !== i.hash),
    delete: Object.entries(previous)
      .filter(([k, v]) => !current.has(k) && !failed.has(grOf(v.ref)))
      .map(([key, v]) => ({ key, ref: v.ref })),
  }
}
