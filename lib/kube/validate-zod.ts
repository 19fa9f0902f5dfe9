/**
 * Turns zod issues into kube StatusCauses: the issue path becomes a kube field path
 * (`spec.locationSelectors[0].matchExpressions[0].operator`), a missing value is
 * FieldValueRequired, a wrong type FieldValueTypeInvalid, a value outside an enum or literal
 * FieldValueNotSupported, anything else FieldValueInvalid (or the reason a custom issue names in
 * `params.reason`). Messages follow kube's wording.
 */
import type { z } from 'zod'
import type { StatusCause } from '../errors.ts'
import {
  formatValue,
  invalidCause,
  isRecord,
  notSupportedCause,
  requiredCause,
  typeInvalidCause,
} from './validate-util.ts'

type Issue = z.core.$ZodIssue

/** `['spec', 'a', 0, 'b']` -> `spec.a[0].b`. */
export function fieldPathOf(path: readonly PropertyKey[]): string {
  let out = ''
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`
    else out = out === '' ? String(seg) : `${out}.${String(seg)}`
  }
  return out
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg]
    else if (isRecord(cur) && typeof seg === 'string') cur = cur[seg]
    else return undefined
  }
  return cur
}

const KUBE_PREFIXES = [
  'Invalid value:',
  'Required value',
  'Forbidden:',
  'Duplicate value:',
  'Unsupported value:',
  'Too long:',
  'Too many:',
]

function expectedType(issue: Issue): string {
  if (issue.code !== 'invalid_type') return 'unknown'
  const e = String(issue.expected)
  return e === 'int' ? 'integer' : e === 'record' ? 'object' : e
}

function causeOf(issue: Issue, root: unknown): StatusCause {
  const field = fieldPathOf(issue.path)
  const value = valueAt(root, issue.path)
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? requiredCause(field)
        : typeInvalidCause(field, value, expectedType(issue))
    case 'invalid_value':
      return notSupportedCause(field, value, issue.values)
    case 'invalid_union':
      return invalidCause(field, value, 'does not match any of the allowed types')
    case 'custom': {
      const reason =
        typeof issue.params?.reason === 'string' ? issue.params.reason : 'FieldValueInvalid'
      const kubeWorded = KUBE_PREFIXES.some((p) => issue.message.startsWith(p))
      const message = kubeWorded
        ? issue.message
        : `Invalid value: ${formatValue(value)}: ${issue.message}`
      return { reason, message, field }
    }
    default:
      return invalidCause(field, value, issue.message)
  }
}

/**
 * Validates `value` with a zod schema; returns kube causes, leaving out issues under the given
 * top-level fields (e.g. `metadata`, checked by its own validator).
 */
export function causesFromZod(
  schema: z.ZodType,
  value: unknown,
  skipTopLevel: string[] = []
): StatusCause[] {
  const result = schema.safeParse(value)
  if (result.success) return []
  return result.error.issues
    .filter((i) => !(typeof i.path[0] === 'string' && skipTopLevel.includes(i.path[0])))
    .map((i) => causeOf(i, value))
}
