/**
 * Reading the values a parsed JSONPath (parse.ts) selects, for status summaries: the values of
 * the places the one walk (select.ts) picks, in document order (none when nothing matches). Pure.
 */
import type { JsonValue } from '../kube/types.ts'
import type { JsonPath } from './parse.ts'
import { selectPlaces } from './select.ts'

/** Every value `path` selects in `root`, in document order. */
export function readJsonPath(path: JsonPath, root: JsonValue): JsonValue[] {
  return selectPlaces(root, path).map((p) => p.value)
}
