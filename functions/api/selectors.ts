/**
 * Turns the labelSelector and fieldSelector query parameters into one predicate over objects.
 * Field selectors support metadata.name and metadata.namespace everywhere, plus the per-kind
 * fields kube offers for Events, Pods, Secrets, Namespaces, Nodes, ReplicaSets and Jobs, with the
 * values kube gives them.
 */
import { type FieldGetter, parseFieldSelector } from '../../lib/kube/field-selector.ts'
import { parseLabelSelector } from '../../lib/kube/label-selector.ts'
import type { KubeObject } from '../../lib/kube/types.ts'

const EXTRA_FIELDS: Record<string, string[]> = {
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const count = (v: unknown): string => String(typeof v === 'number' ? v : 0)
const field = (obj: KubeObject, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
    obj
  )

/**
 * Fields kube computes rather than reads (Event `source`: the source component, else the
 * reporting component; Job `status.successful`: the succeeded count), and fields whose value is a
 * kube default the hub does not store, read as the printers show them (Secret `type` Opaque, Pod
 * `status.phase` Pending, counts 0, Node `spec.unschedulable` false).
 */
const GETTERS: Record<string, Record<string, FieldGetter>> = {
  Event: {
    source: (o) => text(field(o, 'source', 'component')) || text(field(o, 'reportingComponent')),
  },
  Pod: { 'status.phase': (o) => text(field(o, 'status', 'phase')) || 'Pending' },
  Secret: { type: (o) => text(field(o, 'type')) || 'Opaque' },
  Node: { 'spec.unschedulable': (o) => String(field(o, 'spec', 'unschedulable') === true) },
  ReplicaSet: { 'status.replicas': (o) => count(field(o, 'status', 'replicas')) },
  Job: { 'status.successful': (o) => count(field(o, 'status', 'succeeded')) },
}

export function objectPredicate(
  kind: string,
  labelSelector: string | undefined,
  fieldSelector: string | undefined
): ((obj: KubeObject) => boolean) | undefined {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined
  const fields = fieldSelector
    ? parseFieldSelector(fieldSelector, EXTRA_FIELDS[kind] ?? [], GETTERS[kind] ?? {})
    : undefined
  if (!labels && !fields) return undefined
  return (obj) =>
    (labels ? labels(obj.metadata.labels ?? {}) : true) && (fields ? fields(obj) : true)
}
