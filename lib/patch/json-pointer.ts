/**
 * JSON Pointer (RFC 6901) for the JSON patch engine: parsing `/a/b~1c/0` into reference tokens
 * (`~1` is `/`, `~0` is `~`), turning a token into an array index (decimal, no leading zeros,
 * `-` meaning "past the end" where the caller allows it), and reading the value a pointer names.
 */
import type { JsonValue } from '../kube/types.ts'
import { isJsonObject, ownMember } from './json-values.ts'

/** The reference tokens of a pointer; `undefined` when the pointer is malformed. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return undefined
  const tokens = pointer.slice(1).split('/')
  if (tokens.some((t) => /~[^01]|~$/.test(t))) return undefined
  return tokens.map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** Formats reference tokens back into a pointer (inverse of `parsePointer`). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/**
 * The array index a token names, or undefined when it is not an index of an array of `length`
 * items. `allowEnd` accepts `length` itself and `-` (both mean append), as `add` does.
 */
export function arrayIndex(token: string, length: number, allowEnd: boolean): number | undefined {
  if (token === '-') return allowEnd ? length : undefined
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined
  const index = Number(token)
  const limit = allowEnd ? length : length - 1
  return index <= limit ? index : undefined
}

/** The value at `tokens` inside `doc`, or undefined when nothing is there. */
export function valueAt(doc: JsonValue, tokens: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = doc
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = arrayIndex(token, current.length, false)
      current = index === undefined ? undefined : current[index]
    } else if (isJsonObject(current)) {
      current = ownMember(current, token)
    } else return undefined
    if (current === undefined) return undefined
  }
  return current
}
