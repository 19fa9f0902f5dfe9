/**
 * What the agent applies for a desired entry, and how it tells drift from noise.
 *
 * The apply configuration is the mailbox body with only what the agent means to own: apiVersion
 * (the entry's group/version), kind, metadata name/namespace/labels/annotations (kcp's system
 * keys dropped, the marker added: `edge.kcp.io/downsynced` and the agent's name in
 * `edge.kcp.io/agent`, see marker.ts) and the content sections; never
 * status (the edge's) nor server-owned metadata. It is sent by server-side apply (field manager
 * `edgeplane-agent`, force), so fields other managers own (a Service's clusterIP, defaults,
 * status) survive and fields the agent stops applying are removed.
 *
 * Drift: the "view" of a live object is its values at exactly the paths of the configuration
 * (objects by key, lists by index, leaves as they are). Right after an apply the agent records
 * the view's hash; later, a live object whose resourceVersion moved is re-applied only when its
 * view hash differs — an edit to a field the agent owns, or its removal. Status updates, fields of
 * other managers and the server's normalizations (which are already in the recorded view) cost a
 * hash, not a write.
 */
import type { JsonValue, KubeObject, ObjectMeta } from '../kube/types.ts'
import { isSystemKey } from '../placement/annotations.ts'
import { MARKER_ANNOTATIONS, markerAnnotations } from './marker.ts'
import { apiVersionOf, hashOf, isRecord } from './refs.ts'

const NOT_CONTENT = new Set(['apiVersion', 'kind', 'metadata', 'status'])

function stringMap(v: unknown, extra?: Record<string, string>): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  if (isRecord(v))
    for (const [k, val] of Object.entries(v))
      if (typeof val === 'string' && !isSystemKey(k) && !MARKER_ANNOTATIONS.has(k)) out[k] = val
  Object.assign(out, extra)
  return Object.keys(out).length > 0 ? out : undefined
}

export type ConfigTarget = {
  group: string
  version: string
  namespace: string
  name: string
  kind: string
}

/** `identity`: the agent's name for its marker (marker.ts); none in tests of the shape alone. */
export function applyConfigOf(
  body: Record<string, unknown>,
  t: ConfigTarget,
  identity?: string
): KubeObject {
  const meta = isRecord(body.metadata) ? body.metadata : {}
  const metadata: ObjectMeta = { name: t.name }
  if (t.namespace) metadata.namespace = t.namespace
  const labels = stringMap(meta.labels)
  if (labels) metadata.labels = labels
  metadata.annotations = stringMap(meta.annotations, markerAnnotations(identity))
  const kind = typeof body.kind === 'string' && body.kind ? body.kind : t.kind
  const config: KubeObject = { apiVersion: apiVersionOf(t.group, t.version), kind, metadata }
  for (const [k, v] of Object.entries(body))
    if (!NOT_CONTENT.has(k) && v !== undefined) config[k] = v as JsonValue
  return config
}

/** The live object's values at the configuration's paths (absent values as null). */
export function viewOf(live: unknown, config: unknown): unknown {
  if (isRecord(config)) {
    if (!isRecord(live)) return live ?? null
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(config)) out[k] = viewOf(live[k], config[k])
    return out
  }
  if (Array.isArray(config)) {
    if (!Array.isArray(live)) return live ?? null
    return config.map((c, i) => viewOf(live[i], c))
  }
  return live ?? null
}

export const viewHash = (live: KubeObject, config: KubeObject): string =>
  hashOf(viewOf(live, config))
