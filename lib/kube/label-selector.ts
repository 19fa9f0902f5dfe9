/**
 * Label selectors. `parseLabelSelector` turns the `labelSelector` query string into a matcher,
 * with kube's grammar: comma-separated requirements (all must hold) of the forms `a=b`, `a==b`,
 * `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, whitespace tolerant; keys and
 * values are checked like label keys and values, and any error is 400 naming the selector.
 * `matchesLabelSelector` evaluates a metav1.LabelSelector object (an empty one matches
 * everything, an invalid one nothing); `matchesOptionalLabelSelector` makes the caller say what
 * an absent selector means; `validateLabelSelector` returns the causes kube reports.
 */
import { badRequest, type StatusCause } from '../errors.ts'

export type LabelOperator =
  | 'In'
  | 'NotIn'
  | 'Exists'
  | 'DoesNotExist'
  | 'Equals'
  | 'NotEquals'
  | 'GreaterThan'
  | 'LessThan'
export type LabelRequirement = { key: string; operator: LabelOperator; values: string[] }
export type Labels = Readonly<Record<string, string>>
export type LabelMatcher = (labels: Labels | undefined) => boolean

export type LabelSelectorRequirement = { key: string; operator: string; values?: string[] }
/** metav1.LabelSelector */
export type LabelSelector = {
  matchLabels?: Record<string, string>
  matchExpressions?: LabelSelectorRequirement[]
}

type Token = { kind: 'identifier' | 'symbol'; text: string }
type Cursor = { tokens: Token[]; pos: number }
type Fail = (why: string) => Error

const SYMBOLS = ['!=', '==', '=', '!', '(', ')', ',', '>', '<']
const SPECIAL = /[\s!=(),<>]/

function tokenize(text: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < text.length) {
    if (/\s/.test(text[i] ?? '')) {
      i++
      continue
    }
    const symbol = SYMBOLS.find((s) => text.startsWith(s, i))
    let end = i + (symbol?.length ?? 0)
    if (!symbol) while (end < text.length && !SPECIAL.test(text[end] ?? '')) end++
    out.push({ kind: symbol ? 'symbol' : 'identifier', text: text.slice(i, end) })
    i = end
  }
  return out
}

const SINGLE_VALUE: Readonly<Record<string, LabelOperator>> = {
  '=': 'Equals',
  '==': 'Equals',
  '!=': 'NotEquals',
  '>': 'GreaterThan',
  '<': 'LessThan',
}

/** Parses a selector string into requirements (400 BadRequest when it is malformed). */
export function parseLabelRequirements(selector: string): LabelRequirement[] {
  const fail: Fail = (why) => badRequest(`unable to parse label selector "${selector}": ${why}`)
  const cur: Cursor = { tokens: tokenize(selector), pos: 0 }
  const requirements: LabelRequirement[] = []
  while (cur.tokens.length > 0) {
    requirements.push(parseRequirement(cur, fail))
    const sep = cur.tokens[cur.pos++]
    if (!sep) break
    if (sep.text !== ',') throw fail(`found '${sep.text}', expected: ','`)
  }
  for (const r of requirements) checkRequirement(r, fail)
  return requirements
}

/** A matcher for a selector string; the empty string matches everything. */
export function parseLabelSelector(selector: string): LabelMatcher {
  const requirements = parseLabelRequirements(selector)
  return (labels) => matchesRequirements(labels, requirements)
}

function parseRequirement(cur: Cursor, fail: Fail): LabelRequirement {
  const first = cur.tokens[cur.pos++]
  if (first?.text === '!') {
    const key = cur.tokens[cur.pos++]
    if (key?.kind !== 'identifier')
      throw fail(`found '${key?.text ?? ''}', expected: identifier after '!'`)
    return { key: key.text, operator: 'DoesNotExist', values: [] }
  }
  if (first?.kind !== 'identifier')
    throw fail(`found '${first?.text ?? ''}', expected: !, identifier`)
  const op = cur.tokens[cur.pos]
  if (!op || op.text === ',') return { key: first.text, operator: 'Exists', values: [] }
  cur.pos++
  const single = op.kind === 'symbol' ? SINGLE_VALUE[op.text] : undefined
  if (single) {
    const value = cur.tokens[cur.pos]
    if (value?.kind === 'identifier') cur.pos++
    return {
      key: first.text,
      operator: single,
      values: [value?.kind === 'identifier' ? value.text : ''],
    }
  }
  if (op.kind === 'identifier' && (op.text === 'in' || op.text === 'notin')) {
    const values = parseValueSet(cur, fail)
    return { key: first.text, operator: op.text === 'in' ? 'In' : 'NotIn', values }
  }
  throw fail(`found '${op.text}', expected: in, notin, =, ==, !=, gt, lt`)
}

/** `( v1, v2 )`; a slot between commas may be empty (`(a,)` holds "a" and ""). */
function parseValueSet(cur: Cursor, fail: Fail): string[] {
  const open = cur.tokens[cur.pos++]
  if (open?.text !== '(') throw fail(`found '${open?.text ?? ''}', expected: '('`)
  const values: string[] = []
  let current: string | undefined
  for (;;) {
    const t = cur.tokens[cur.pos++]
    if (!t) throw fail(`found '', expected: ')'`)
    if (t.text === ')') {
      if (current !== undefined || values.length > 0) values.push(current ?? '')
      return values
    }
    if (t.text === ',') {
      values.push(current ?? '')
      current = undefined
    } else if (t.kind === 'identifier' && current === undefined) current = t.text
    else throw fail(`found '${t.text}', expected: ',' or ')'`)
  }
}

function checkRequirement(r: LabelRequirement, fail: Fail): void {
  const keyProblem = labelKeyProblem(r.key)
  if (keyProblem) throw fail(`invalid label key "${r.key}": ${keyProblem}`)
  if ((r.operator === 'In' || r.operator === 'NotIn') && r.values.length === 0) {
    throw fail(`for 'in', 'notin' operators, values set can't be empty`)
  }
  const numeric = r.operator === 'GreaterThan' || r.operator === 'LessThan'
  for (const v of r.values) {
    if (numeric && !INTEGER.test(v))
      throw fail(`for 'Gt', 'Lt' operators, the value must be an integer: "${v}"`)
    const problem = numeric ? undefined : labelValueProblem(v)
    if (problem) throw fail(`invalid label value "${v}": ${problem}`)
  }
}

const INTEGER = /^-?\d+$/

/** True when every requirement holds for `labels`. */
export function matchesRequirements(
  labels: Labels | undefined,
  requirements: readonly LabelRequirement[]
): boolean {
  return requirements.every((r) => matchesRequirement(labels ?? {}, r))
}

function matchesRequirement(labels: Labels, r: LabelRequirement): boolean {
  const value = Object.hasOwn(labels, r.key) ? labels[r.key] : undefined
  switch (r.operator) {
    case 'Exists':
      return value !== undefined
    case 'DoesNotExist':
      return value === undefined
    case 'In':
    case 'Equals':
      return value !== undefined && r.values.includes(value)
    case 'NotIn':
    case 'NotEquals':
      return value === undefined || !r.values.includes(value)
    default: {
      if (value === undefined || !INTEGER.test(value)) return false
      const bound = Number(r.values[0])
      return r.operator === 'GreaterThan' ? Number(value) > bound : Number(value) < bound
    }
  }
}

/**
 * The requirements of a metav1.LabelSelector (matchLabels become equalities), or undefined when
 * it is invalid (unknown operator, In/NotIn without values, Exists/DoesNotExist with values).
 */
export function labelSelectorRequirements(selector: LabelSelector): LabelRequirement[] | undefined {
  const out: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({
    key,
    operator: 'Equals',
    values: [v],
  }))
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const setBased = operator === 'In' || operator === 'NotIn'
    const existence = operator === 'Exists' || operator === 'DoesNotExist'
    if ((setBased && values.length === 0) || (existence && values.length > 0)) return undefined
    if (!setBased && !existence) return undefined
    out.push({ key, operator, values })
  }
  return out
}

/** Whether `labels` match a metav1.LabelSelector; `{}` matches everything, an invalid one nothing. */
export function matchesLabelSelector(labels: Labels | undefined, selector: LabelSelector): boolean {
  const requirements = labelSelectorRequirements(selector)
  return requirements !== undefined && matchesRequirements(labels, requirements)
}

/** Like `matchesLabelSelector`, with the caller choosing what a null or absent selector selects. */
export function matchesOptionalLabelSelector(
  labels: Labels | undefined,
  selector: LabelSelector | null | undefined,
  whenAbsent: 'nothing' | 'everything'
): boolean {
  if (selector === null || selector === undefined) return whenAbsent === 'everything'
  return matchesLabelSelector(labels, selector)
}

/** The causes kube reports for an invalid metav1.LabelSelector at `fieldPath`. */
export function validateLabelSelector(
  selector: LabelSelector,
  fieldPath = 'selector'
): StatusCause[] {
  const causes: StatusCause[] = []
  const check = (field: string, value: string, problem: string | undefined) => {
    if (problem)
      causes.push({
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: "${value}": ${problem}`,
      })
  }
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    check(`${fieldPath}.matchLabels`, key, labelKeyProblem(key))
    check(`${fieldPath}.matchLabels`, value, labelValueProblem(value))
  }
  ;(selector.matchExpressions ?? []).forEach(({ key, operator, values = [] }, i) => {
    const at = `${fieldPath}.matchExpressions[${i}]`
    const cause = operatorCause(operator, values.length > 0, at)
    if (cause) causes.push(cause)
    check(`${at}.key`, key, labelKeyProblem(key))
    values.forEach((v, j) => {
      check(`${at}.values[${j}]`, v, labelValueProblem(v))
    })
  })
  return causes
}

function operatorCause(operator: string, hasValues: boolean, at: string): StatusCause | undefined {
  if (operator === 'In' || operator === 'NotIn') {
    if (hasValues) return undefined
    const message = "Required value: must be specified when `operator` is 'In' or 'NotIn'"
    return { reason: 'FieldValueRequired', field: `${at}.values`, message }
  }
  if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (!hasValues) return undefined
    const message = "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
    return { reason: 'FieldValueForbidden', field: `${at}.values`, message }
  }
  const message = `Unsupported value: "${operator}": supported values: "In", "NotIn", "Exists", "DoesNotExist"`
  return { reason: 'FieldValueNotSupported', field: `${at}.operator`, message }
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const NAME_CHARS =
  "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

/** Why `key` is not a valid label key (a qualified name: `[prefix/]name`), or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/')
  if (parts.length > 2)
    return `a qualified name must ${NAME_CHARS}, with an optional DNS subdomain prefix and '/'`
  const name = parts.at(-1) ?? ''
  const prefix = parts.length === 2 ? (parts[0] ?? '') : undefined
  if (prefix !== undefined) {
    if (prefix === '') return 'prefix part must be non-empty'
    if (prefix.length > 253) return 'prefix part must be no more than 253 characters'
    if (!DNS_SUBDOMAIN.test(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
    }
  }
  if (name === '') return 'name part must be non-empty'
  if (name.length > 63) return 'name part must be no more than 63 characters'
  return NAME.test(name) ? undefined : `name part must ${NAME_CHARS}`
}

/** Why `value` is not a valid label value (empty, or up to 63 name characters), or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters'
  if (value === '' || NAME.test(value)) return undefined
  return `a valid label must be an empty string or ${NAME_CHARS}`
}
