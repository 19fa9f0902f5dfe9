/**
 * Small shared pieces of the validators: narrowing of untyped JSON, kube-style field paths
 * (`spec.containers[0].image`, `metadata.labels[app]`), and constructors for StatusCauses with
 * kube's reasons and message wording (`Required value`, `Invalid value: "x": ...`,
 * `Unsupported value: ...: supported values: ...`, `Duplicate value`, `Forbidden`, `Too long`).
 */
import type { StatusCause } from '../errors.ts'

export type JsonRecord = Record<string, unknown>

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export const asRecord = (v: unknown): JsonRecord | undefined => (isRecord(v) ? v : undefined)
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const asArray = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined)

/** Appends a property name to a field path. */
export const childPath = (path: string, key: string) => (path === '' ? key : `${path}.${key}`)
/** Appends a list index to a field path. */
export const indexPath = (path: string, i: number) => `${path}[${i}]`
/** Appends a map key to a field path, kube style: `metadata.labels[app]`. */
export const keyPath = (path: string, key: string) => `${path}[${key}]`

/** Renders a value the way kube's field errors quote it (strings quoted, long values cut). */
export function formatValue(value: unknown): string {
  let text: string
  try {
    text = value === undefined ? 'null' : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** The JSON type name kube uses in type errors. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value === 'object' ? 'object' : typeof value
}

export const requiredCause = (field: string, detail?: string): StatusCause => ({
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
  field,
})

export const invalidCause = (field: string, value: unknown, detail: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${formatValue(value)}: ${detail}`,
  field,
})

export const notSupportedCause = (
  field: string,
  value: unknown,
  supported: readonly unknown[]
): StatusCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${formatValue(value)}: supported values: ${supported
    .map(formatValue)
    .join(', ')}`,
  field,
})

export const duplicateCause = (field: string, value: unknown): StatusCause => ({
  reason: 'FieldValueDuplicate',
  message: `Duplicate value: ${formatValue(value)}`,
  field,
})

export const forbiddenCause = (field: string, detail: string): StatusCause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
})

export const tooLongCause = (field: string, max: number, unit = 'bytes'): StatusCause => ({
  reason: 'FieldValueTooLong',
  message: `Too long: must have at most ${max} ${unit}`,
  field,
})

export const typeInvalidCause = (field: string, value: unknown, expected: string): StatusCause => {
  const actual = jsonTypeOf(value)
  return {
    reason: 'FieldValueTypeInvalid',
    message: `Invalid value: "${actual}": ${field} in body must be of type ${expected}: "${actual}"`,
    field,
  }
}

/** One FieldValueInvalid cause per message of a name/key checker (`dnsLabelErrors`, ...). */
export function causesFromMessages(
  field: string,
  value: unknown,
  messages: string[]
): StatusCause[] {
  return messages.map((m) => invalidCause(field, value, m))
}
