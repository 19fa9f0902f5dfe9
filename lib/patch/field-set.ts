/**
 * Sets of field paths and their FieldsV1 encoding in `metadata.managedFields`. A set holds the
 * `pathKey` of every member path. In FieldsV1 each path element is a nested object key; a member
 * path with no members below it is an empty object, and a member that also has members below it
 * carries a `".": {}` entry (the usual shape of list items: `k:{"name":"app"}: {".": {}, ...}`).
 * Encoding sorts the entries so the output is stable.
 */
import { badRequest } from '../errors.ts'
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { type FieldPath, formatPath, pathFromKey, pathKey } from './field-path.ts'
import { guardDepth } from './json-limits.ts'
import { isJsonObject, setMember } from './json-values.ts'

export type FieldSet = ReadonlySet<string>

type TreeNode = { member: boolean; children: Map<string, TreeNode> }

const ELEMENT = /^[fkvi]:/

/** Decodes a FieldsV1 object. Malformed input (non-object entries, unknown prefixes) is 400. */
export function fieldSetFromFieldsV1(fields: JsonValue | undefined): FieldSet {
  const out = new Set<string>()
  const walk = (node: JsonValue, path: string[]) => {
    guardDepth(path.length)
    if (!isJsonObject(node))
      throw badRequest(`invalid managedFields: ${formatPath(path) || 'fieldsV1'} is not an object`)
    for (const [element, child] of Object.entries(node)) {
      if (element === '.') {
        if (path.length > 0) out.add(pathKey(path))
        continue
      }
      if (!ELEMENT.test(element))
        throw badRequest(`invalid managedFields: unknown field element ${JSON.stringify(element)}`)
      const childPath = [...path, element]
      if (isJsonObject(child) && Object.keys(child).length === 0) out.add(pathKey(childPath))
      else walk(child, childPath)
    }
  }
  if (fields !== undefined) walk(fields, [])
  return out
}

/** Encodes a set of paths as FieldsV1. */
export function fieldSetToFieldsV1(set: FieldSet): JsonObject {
  const root: TreeNode = { member: false, children: new Map() }
  for (const key of set) {
    let node = root
    for (const element of pathFromKey(key)) {
      let child = node.children.get(element)
      if (!child) {
        child = { member: false, children: new Map() }
        node.children.set(element, child)
      }
      node = child
    }
    node.member = true
  }
  return encodeNode(root)
}

function encodeNode(node: TreeNode): JsonObject {
  const out: JsonObject = {}
  if (node.member && node.children.size > 0) out['.'] = {}
  const elements = [...node.children.keys()].sort(compareElements)
  for (const element of elements) {
    const child = node.children.get(element)
    if (child) setMember(out, element, encodeNode(child))
  }
  return out
}

const PREFIX_RANK: Record<string, number> = { 'f:': 0, 'k:': 1, 'v:': 2, 'i:': 3 }

function compareElements(a: string, b: string): number {
  const rank = (PREFIX_RANK[a.slice(0, 2)] ?? 4) - (PREFIX_RANK[b.slice(0, 2)] ?? 4)
  if (rank !== 0) return rank
  return a < b ? -1 : a > b ? 1 : 0
}

/** Builds a set from paths. */
export function fieldSetOf(paths: Iterable<FieldPath>): FieldSet {
  return new Set([...paths].map(pathKey))
}

export function union(...sets: FieldSet[]): FieldSet {
  const out = new Set<string>()
  for (const s of sets) for (const k of s) out.add(k)
  return out
}

export function difference(a: FieldSet, b: FieldSet): FieldSet {
  return new Set([...a].filter((k) => !b.has(k)))
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  return new Set([...a].filter((k) => b.has(k)))
}

export function sameSet(a: FieldSet, b: FieldSet): boolean {
  return a.size === b.size && [...a].every((k) => b.has(k))
}
