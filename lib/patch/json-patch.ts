/**
 * JSON patch (RFC 6902), the `application/json-patch+json` patch type: an array of `add`,
 * `remove`, `replace`, `move`, `copy` and `test` operations over JSON pointers, applied in order
 * to a copy of the target (the input is never mutated). A patch that is not a well-formed array of
 * operations is 400 BadRequest; a well-formed operation that cannot be applied (missing path,
 * index out of range, failed `test`) is 422 Invalid, as kube answers. Messages name the operation
 * index and its path. Like kube, at most 10000 operations are accepted (413 past that). What the
 * operations may do to the object's size and depth is tracked as they run (json-patch-budget.ts).
 */
import { badRequest, tooLarge } from '../errors.ts'
import type { JsonValue } from '../kube/types.ts'
import { PatchBudget } from './json-patch-budget.ts'
import { arrayIndex, parsePointer, valueAt } from './json-pointer.ts'
import { canonicalJson, cloneJson, deepEqual, isJsonObject, setMember } from './json-values.ts'
import { unprocessable } from './patch-errors.ts'
import { checkPatched } from './patched-result.ts'

export const MAX_JSON_PATCH_OPERATIONS = 10_000

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const
type OpName = (typeof OPS)[number]

export type JsonPatchOperation = {
  op: OpName
  path: string
  tokens: string[]
  from?: string[]
  value?: JsonValue
}

/** Applies a JSON patch document to a copy of `target` and returns the result. */
export function applyJsonPatch(target: JsonValue, patch: JsonValue): JsonValue {
  const ops = decodeJsonPatch(patch)
  const budget = new PatchBudget(target)
  let doc = cloneJson(target)
  ops.forEach((op, index) => {
    const where = `json patch operation ${index} (${op.op} ${JSON.stringify(op.path)})`
    doc = applyOperation(doc, op, {
      fail: (why) => unprocessable(`${where} failed: ${why}`),
      budget,
      where,
    })
  })
  return checkPatched(doc, 'json patch')
}

/** Validates the shape of a JSON patch document and decodes its pointers. */
export function decodeJsonPatch(patch: JsonValue): JsonPatchOperation[] {
  if (!Array.isArray(patch)) throw badRequest('invalid JSON patch: expected an array of operations')
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw tooLarge(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`
    )
  }
  return patch.map((raw, index) => decodeOperation(raw, index))
}

function decodeOperation(raw: JsonValue, index: number): JsonPatchOperation {
  const fail = (why: string) => badRequest(`invalid JSON patch: operation ${index}: ${why}`)
  if (!isJsonObject(raw)) throw fail('expected an object')
  const { op, path, from, value } = raw
  if (typeof op !== 'string' || !OPS.some((o) => o === op)) {
    throw fail(`unknown "op" ${canonicalJson(op ?? null)}, expected one of ${OPS.join(', ')}`)
  }
  if (typeof path !== 'string') throw fail(`"${op}" needs a string "path"`)
  const tokens = parsePointer(path)
  if (!tokens) throw fail(`"path" ${JSON.stringify(path)} is not a JSON pointer`)
  const decoded: JsonPatchOperation = { op: op as OpName, path, tokens }
  if (op === 'add' || op === 'replace' || op === 'test') {
    if (value === undefined) throw fail(`"${op}" ${path} needs a "value"`)
    decoded.value = value
  }
  if (op === 'move' || op === 'copy') {
    if (typeof from !== 'string') throw fail(`"${op}" ${path} needs a string "from"`)
    const fromTokens = parsePointer(from)
    if (!fromTokens) throw fail(`"from" ${JSON.stringify(from)} is not a JSON pointer`)
    decoded.from = fromTokens
  }
  return decoded
}

type Fail = (why: string) => Error
type OpContext = { fail: Fail; budget: PatchBudget; where: string }

function applyOperation(doc: JsonValue, op: JsonPatchOperation, c: OpContext): JsonValue {
  const { fail, budget } = c
  switch (op.op) {
    case 'add': {
      const value = op.value ?? null
      const replaced = replacedByAdd(doc, op.tokens)
      if (replaced !== undefined) budget.remove(replaced)
      budget.insert(value, op.tokens.length, c.where)
      return addAt(doc, op.tokens, cloneJson(value), fail)
    }
    case 'remove': {
      const removed = removeAt(doc, op.tokens, fail)
      budget.remove(removed.value)
      return removed.doc
    }
    case 'replace': {
      const old = valueAt(doc, op.tokens)
      if (old === undefined) throw fail('the path does not exist')
      const value = op.value ?? null
      budget.remove(old)
      budget.insert(value, op.tokens.length, c.where)
      return replaceAt(doc, op.tokens, cloneJson(value), fail)
    }
    case 'test':
      if (!deepEqual(valueAt(doc, op.tokens), op.value)) throw fail('the test did not match')
      return doc
    case 'copy': {
      const value = valueAt(doc, op.from ?? [])
      if (value === undefined) throw fail('the "from" location does not exist')
      const replaced = replacedByAdd(doc, op.tokens)
      if (replaced !== undefined) budget.remove(replaced)
      budget.insert(value, op.tokens.length, c.where, true)
      return addAt(doc, op.tokens, cloneJson(value), fail)
    }
    case 'move': {
      const from = op.from ?? []
      if (from.length < op.tokens.length && from.every((t, i) => op.tokens[i] === t)) {
        throw fail('cannot move a value into one of its own children')
      }
      budget.move(from.length, op.tokens.length, c.where)
      const removed = removeAt(doc, from, fail)
      return addAt(removed.doc, op.tokens, removed.value, fail)
    }
  }
}

/** The value an add at `tokens` would overwrite: the whole document or an object member. */
function replacedByAdd(doc: JsonValue, tokens: string[]): JsonValue | undefined {
  const last = tokens.at(-1)
  if (last === undefined) return doc
  const parent = valueAt(doc, tokens.slice(0, -1))
  return isJsonObject(parent) && Object.hasOwn(parent, last) ? parent[last] : undefined
}

/** Inserts `value` at `tokens`: appends or inserts in arrays, sets object members. */
function addAt(doc: JsonValue, tokens: string[], value: JsonValue, fail: Fail): JsonValue {
  const last = tokens.at(-1)
  if (last === undefined) return value
  const parent = valueAt(doc, tokens.slice(0, -1))
  if (Array.isArray(parent)) {
    const index = arrayIndex(last, parent.length, true)
    if (index === undefined) throw fail(`index ${last} is out of range (length ${parent.length})`)
    parent.splice(index, 0, value)
  } else if (isJsonObject(parent)) setMember(parent, last, value)
  else throw fail('the parent of the path does not exist or is not an object or array')
  return doc
}

/** Removes the value at `tokens`, which must exist; returns the new document and the value. */
function removeAt(
  doc: JsonValue,
  tokens: string[],
  fail: Fail
): { doc: JsonValue; value: JsonValue } {
  const last = tokens.at(-1)
  const value = valueAt(doc, tokens)
  if (value === undefined) throw fail('the path does not exist')
  if (last === undefined) throw fail('cannot remove the whole document')
  const parent = valueAt(doc, tokens.slice(0, -1))
  if (Array.isArray(parent)) parent.splice(Number(last), 1)
  else if (isJsonObject(parent)) delete parent[last]
  return { doc, value }
}

/** Replaces the value at `tokens`, which must exist. */
function replaceAt(doc: JsonValue, tokens: string[], value: JsonValue, fail: Fail): JsonValue {
  const last = tokens.at(-1)
  if (last === undefined) return value
  if (valueAt(doc, tokens) === undefined) throw fail('the path does not exist')
  const parent = valueAt(doc, tokens.slice(0, -1))
  if (Array.isArray(parent)) parent[Number(last)] = value
  else if (isJsonObject(parent)) setMember(parent, last, value)
  return doc
}
