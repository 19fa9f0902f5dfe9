/**
 * Turns the labelSelector and fieldSelector query parameters into one predicate over objects.
 * Field selectors support metadata.name and metadata.namespace everywhere, plus the per-kind
 * fields kube offers for Events and Pods.
 */
import { parseFieldSelector } from '../../lib/kube/field-selector.ts'
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

export function objectPredicate(
  kind: string,
  labelSelector: string | undefined,
  fieldSelector: string | undefined
): ((obj: KubeObject) => boolean) | undefined {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined
  const fields = fieldSelector
    ? parseFieldSelector(fieldSelector, EXTRA_FIELDS[kind] ?? [])
    : undefined
  if (!labels && !fields) return undefined
  return (obj) =>
    (labels ? labels(obj.metadata.labels ?? {}) : true) && (fields ? fields(obj) : true)
}
