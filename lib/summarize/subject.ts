/**
 * Which placed objects a Summarizer summarizes: every field of its `spec.subject` that is given
 * must match — group ('' is the core group), resource (lowercase plural), namespace, name, and the
 * object's labels against `labelSelector` (kube semantics: an empty selector matches everything,
 * an invalid one nothing). No subject matches every placed object of the space. Pure.
 */
import type { SummarizerSpec } from '../apis/edge-summary.ts'
import {
  type LabelSelector,
  labelSelectorRequirements,
  matchesRequirements,
} from '../kube/label-selector.ts'

export type SubjectCandidate = {
  group: string
  resource: string
  /** '' for cluster-scoped objects. */
  namespace: string
  name: string
  labels?: Record<string, string>
}

export type SubjectMatcher = (c: SubjectCandidate) => boolean

export function subjectMatcher(subject: SummarizerSpec['subject']): SubjectMatcher {
  if (!subject) return () => true
  const requirements = subject.labelSelector
    ? labelSelectorRequirements(subject.labelSelector as LabelSelector)
    : []
  return (c) =>
    (subject.group === undefined || subject.group === c.group) &&
    (subject.resource === undefined || subject.resource === c.resource) &&
    (subject.namespace === undefined || subject.namespace === c.namespace) &&
    (subject.name === undefined || subject.name === c.name) &&
    requirements !== undefined &&
    matchesRequirements(c.labels, requirements)
}
