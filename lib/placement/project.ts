/**
 * The body of a workload object's copy in a mailbox (seed 001, "Additional Design Details"),
 * without per-copy metadata: the store adds uid, resourceVersion, creationTimestamp, generation
 * and the `kcp.io/cluster` annotation when it renders a copy, and keeps the copy's status (which
 * belongs to the edge: the syncer writes it back) apart from the body, so a body never has one.
 * Output metadata is name, namespace, labels and annotations only (empty maps omitted); labels
 * and annotations are key-sorted and the other top-level sections follow apiVersion, kind and
 * metadata in key order, so the same input always gives the same JSON.
 * Create: the source minus managedFields, resourceVersion, selfLink, uid, ownerReferences (no uid
 * mapping between spaces), creationTimestamp, generation, deletion fields, finalizers,
 * generateName and status; its "system" label and annotation keys (kcp's, e.g. kcp.io/cluster)
 * dropped; label `edge.kcp.io/projected=yes`.
 * Update (given the copy's current body): every top-level section of the source other than
 * apiVersion, kind, metadata and status replaces the copy's, and sections the source no longer has
 * are REMOVED: here we are more correct than the seed, which leaves them, so a field deleted from
 * the workload (say `data` of a ConfigMap emptied to nothing) would live on at the edge forever.
 * Labels and annotations merge key by key as the seed says: the copy's keys the source lacks stay,
 * source values overwrite, system keys stay as in the copy and are never taken from the source.
 * The summarize step's `kubestellar.io/executing-count` annotation stays in the center.
 * Content leaves out the values kube's defaults of a built-in kind would fill in again
 * (lib/kube/defaults/builtin-defaults.ts): the center fills them on every write, and each edge,
 * a kube API server too, fills them from the copy it gets, customized for it.
 */

import { stripBuiltinDefaults } from '../kube/defaults/builtin-defaults.ts'
import type { JsonValue, KubeObject, ObjectMeta } from '../kube/types.ts'
import { cloneJson } from '../patch/json-values.ts'
import { PROJECTED_LABEL, travels } from './annotations.ts'

const PROJECTED_VALUE = 'yes'

/** Sections that are not copied as content: identity, metadata and the edge-owned status. */
const NOT_CONTENT: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'status'])

type StringMap = Record<string, string>

function sortedMap(entries: Iterable<[string, string]>): StringMap | undefined {
  const list = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return list.length > 0 ? Object.fromEntries(list) : undefined
}

/**
 * Merges the source's map over the previous copy's: previous keys stay, non-system source keys
 * overwrite, system keys come only from the previous copy. With no previous copy, the source's
 * non-system keys.
 */
function mergeMap(
  source: StringMap | undefined,
  previous: StringMap | undefined
): Map<string, string> {
  const out = new Map<string, string>(Object.entries(previous ?? {}))
  for (const [k, v] of Object.entries(source ?? {})) {
    if (travels(k)) out.set(k, v)
  }
  return out
}

function contentSections(obj: KubeObject): [string, JsonValue][] {
  return Object.keys(obj)
    .filter((k) => !NOT_CONTENT.has(k) && obj[k] !== undefined)
    .sort()
    .map((k) => [k, cloneJson(obj[k] as JsonValue)])
}

/** The mailbox copy's body for `source`; `previous` is the copy's current body, if any. */
export function projectBody(source: KubeObject, previous?: KubeObject): KubeObject {
  const src = source.metadata ?? {}
  const prev = previous?.metadata
  const labels = mergeMap(src.labels, prev?.labels)
  labels.set(PROJECTED_LABEL, PROJECTED_VALUE)
  const annotations = sortedMap(mergeMap(src.annotations, prev?.annotations))

  const metadata: ObjectMeta = {}
  if (src.name !== undefined) metadata.name = src.name
  if (src.namespace) metadata.namespace = src.namespace
  metadata.labels = sortedMap(labels)
  if (annotations) metadata.annotations = annotations

  const body: KubeObject = { apiVersion: source.apiVersion, kind: source.kind, metadata }
  for (const [k, v] of contentSections(source)) body[k] = v
  stripBuiltinDefaults(body)
  return body
}

/**
 * A Namespace that a namespaced object needs but that the placement did not select: only its name
 * and the projected label, plus what the copy already had (its labels and annotations stay by the
 * merge rule, its spec goes). Its own details travel only when the placement selects it.
 */
export function impliedNamespace(name: string, previous?: KubeObject): KubeObject {
  return projectBody({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, previous)
}
