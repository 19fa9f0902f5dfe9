/**
 * Why a metav1.LabelSelector does not match an object's labels, in words: the first requirement
 * (matchLabels first, then matchExpressions, in their order) that fails, written as kube's selector
 * string writes it, and what the labels hold for its key — `env in (dev): the Location has
 * env=prod`, `tier: the Location has no tier label`. Bounded: long value lists and values are cut,
 * so a message stays short whatever the selector holds.
 */
import {
  type LabelRequirement,
  type LabelSelector,
  type Labels,
  labelSelectorRequirements,
  matchesRequirements,
} from './label-selector.ts'

/** At most this many values of an In/NotIn requirement are written out. */
const MAX_VALUES = 3
/** Keys and values longer than this are cut. */
const MAX_TEXT = 64

const cut = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s)

const valueSet = (values: readonly string[]) => {
  const shown = values.slice(0, MAX_VALUES).map(cut).join(',')
  return values.length > MAX_VALUES ? `${shown},…` : shown
}

/** A requirement as kube's selector string writes it (`a=b`, `a in (x,y)`, `!a`, ...). */
export function requirementText(r: LabelRequirement): string {
  const key = cut(r.key)
  switch (r.operator) {
    case 'Equals':
      return `${key}=${cut(r.values[0] ?? '')}`
    case 'NotEquals':
      return `${key}!=${cut(r.values[0] ?? '')}`
    case 'In':
      return `${key} in (${valueSet(r.values)})`
    case 'NotIn':
      return `${key} notin (${valueSet(r.values)})`
    case 'Exists':
      return key
    case 'DoesNotExist':
      return `!${key}`
    case 'GreaterThan':
      return `${key}>${cut(r.values[0] ?? '')}`
    case 'LessThan':
      return `${key}<${cut(r.values[0] ?? '')}`
  }
}

/**
 * Why `selector` does not match `labels` (`subject` names the labelled object in the message), or
 * undefined when it matches. An invalid selector matches nothing, and says so.
 */
export function labelMismatch(
  labels: Labels | undefined,
  selector: LabelSelector,
  subject = 'the object'
): string | undefined {
  const requirements = labelSelectorRequirements(selector)
  if (!requirements) return 'not a valid label selector: it matches nothing'
  const failed = requirements.find((r) => !matchesRequirements(labels, [r]))
  if (!failed) return undefined
  const value = labels && Object.hasOwn(labels, failed.key) ? labels[failed.key] : undefined
  const has =
    value === undefined
      ? `${subject} has no ${cut(failed.key)} label`
      : `${subject} has ${cut(failed.key)}=${cut(value)}`
  return `${requirementText(failed)}: ${has}`
}
