/**
 * Field paths of server-side apply, in the element syntax of kube's FieldsV1 format: `f:<name>`
 * for an object member, `k:{"name":"x"}` for the item of a keyed list (key fields sorted),
 * `v:<json>` for a value of a set list and `i:<n>` for a list index. A path is the list of its
 * element strings; `pathKey` gives it a unique string form for use in sets and maps, and
 * `formatPath` renders it the way kube error messages do (`.spec.containers[name="app"].image`).
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { canonicalJson, isJsonObject } from './json-values.ts'

export type FieldPath = readonly string[]

export const fieldElement = (name: string) => `f:${name}`
export const keyElement = (key: JsonObject) => `k:${canonicalJson(key)}`
export const valueElement = (value: JsonValue) => `v:${canonicalJson(value)}`

/** The string identifying a path inside sets and maps. */
export function pathKey(path: FieldPath): string {
  return JSON.stringify(path)
}

/** Inverse of `pathKey`. */
export function pathFromKey(key: string): string[] {
  return JSON.parse(key) as string[]
}

/** True when `prefix` is a proper prefix of `path`. */
export function isProperPrefix(prefix: FieldPath, path: FieldPath): boolean {
  return prefix.length < path.length && prefix.every((e, i) => path[i] === e)
}

/** Parses the JSON part of a `k:` or `v:` element; undefined when it is not valid JSON. */
export function elementValue(element: string): JsonValue | undefined {
  try {
    return JSON.parse(element.slice(2)) as JsonValue
  } catch {
    return undefined
  }
}

function scalarText(v: JsonValue | undefined): string {
  return typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v ?? null)
}

/** One element the way kube prints it: `.name`, `[name="x"]`, `[="v"]`, `[0]`. */
export function formatElement(element: string): string {
  const body = element.slice(2)
  switch (element.slice(0, 2)) {
    case 'f:':
      return `.${body}`
    case 'k:': {
      const key = elementValue(element)
      if (!isJsonObject(key)) return `[${body}]`
      return `[${Object.entries(key)
        .map(([k, v]) => `${k}=${scalarText(v)}`)
        .join(',')}]`
    }
    case 'v:':
      return `[=${scalarText(elementValue(element))}]`
    case 'i:':
      return `[${body}]`
    default:
      return element
  }
}

/** A whole path the way kube prints it in conflict messages. */
export function formatPath(path: FieldPath): string {
  return path.map(formatElement).join('')
}
