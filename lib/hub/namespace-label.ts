/**
 * The label kube-apiserver keeps on every Namespace: `kubernetes.io/metadata.name` set to its name
 * (GA since Kubernetes 1.22; the namespace strategy's Canonicalize sets it on every create,
 * update, patch and apply, so it cannot be changed or removed). Selectors commonly use it to pick
 * one namespace (`namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: web}}`).
 * Namespaces stored before the hub set it lack it until their next write; placement selection
 * reads it from the name either way (lib/placement/select.ts).
 */
import type { KubeObject } from '../kube/types.ts'

export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name'

/** Whether a write to group/resource is a Namespace's. */
export const isNamespaces = (group: string, resource: string) =>
  group === '' && resource === 'namespaces'

/** The Namespace with its name label set (the object itself when it already says so). */
export function withNameLabel(ns: KubeObject): KubeObject {
  const name = ns.metadata.name
  if (!name || ns.metadata.labels?.[NAMESPACE_NAME_LABEL] === name) return ns
  const labels = { ...(ns.metadata.labels ?? {}), [NAMESPACE_NAME_LABEL]: name }
  return { ...ns, metadata: { ...ns.metadata, labels } }
}
