import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import type { JsonValue } from '../../../lib/kube/types.ts'
import {
  HELPER_DEPTH_GUARD,
  MAX_NESTING_DEPTH,
  MAX_PATCHED_OBJECT_BYTES,
  nestedTooDeep,
} from '../../../lib/patch/json-limits.ts'
import { canonicalJson, cloneJson, deepEqual } from '../../../lib/patch/json-values.ts'
import { applyMergePatch, createMergePatch } from '../../../lib/patch/merge-patch.ts'
import { applyStrategicMergePatch } from '../../../lib/patch/strategic-merge.ts'
import { MAX_OBJECT_BYTES } from '../../../lib/store/body-codec.ts'

function nested(depth: number): JsonValue {
  let v: JsonValue = 1
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}

function status(f: () => unknown): number | string {
  try {
    f()
    return 'no error'
  } catch (e) {
    return e instanceof ApiError ? e.code : String(e)
  }
}

describe('limits', () => {
  it('patches may grow objects to exactly what the store accepts', () => {
    expect(MAX_PATCHED_OBJECT_BYTES).toBe(MAX_OBJECT_BYTES)
  })

  it('counts managedFields with their allowance', () => {
    const obj = (specDepth: number, fieldsDepth: number) => ({
      metadata: { managedFields: [{ fieldsV1: nested(fieldsDepth) }] },
      spec: nested(specDepth),
    })
    expect(nestedTooDeep(obj(MAX_NESTING_DEPTH - 1, MAX_NESTING_DEPTH + 2))).toBe(false)
    expect(nestedTooDeep(obj(MAX_NESTING_DEPTH, 3))).toBe(true)
    expect(nestedTooDeep(obj(3, MAX_NESTING_DEPTH + 20))).toBe(true)
    expect(nestedTooDeep(nested(MAX_NESTING_DEPTH))).toBe(false)
    expect(nestedTooDeep(nested(MAX_NESTING_DEPTH + 1))).toBe(true)
  })
})

describe('recursive helpers refuse deep values with a 400 instead of overflowing', () => {
  for (const depth of [5_000, 100_000]) {
    it(`at ${depth} levels`, () => {
      const deep = nested(depth)
      expect(status(() => canonicalJson(deep))).toBe(400)
      expect(status(() => cloneJson(deep))).toBe(400)
      expect(status(() => deepEqual(deep, nested(depth)))).toBe(400)
      expect(status(() => applyMergePatch({}, deep))).toBe(400)
      expect(status(() => createMergePatch({ a: 1 }, deep as { a: JsonValue }))).toBe(400)
      expect(status(() => createMergePatch(deep, nested(depth)))).toBe(400)
    })
  }

  it('work normally up to the guard', () => {
    const v = nested(HELPER_DEPTH_GUARD)
    expect(canonicalJson(v)).toBe(JSON.stringify(v))
    expect(cloneJson(v)).toEqual(v)
    expect(deepEqual(v, nested(HELPER_DEPTH_GUARD))).toBe(true)
  })

  it('cloneJson copies, keeping __proto__ as a plain member', () => {
    const v = JSON.parse('{"__proto__":{"x":1},"a":[1,{"b":2}]}') as JsonValue
    const c = cloneJson(v)
    expect(c).toEqual(v)
    expect(Object.hasOwn(c as object, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype)
    expect((c as { a: JsonValue[] }).a).not.toBe((v as { a: JsonValue[] }).a)
  })
})

describe('merges check their result', () => {
  const gvk = { group: '', version: 'v1', kind: 'ConfigMap' }

  it('422 when a merge result nests too deep', () => {
    const target = nested(MAX_NESTING_DEPTH)
    expect(status(() => applyMergePatch(target, { b: 1 }))).toBe('no error')
    // a patch within the limit whose members land under the target's deepest object
    const patch = { a: nested(3) }
    expect(status(() => applyMergePatch({ a: nested(MAX_NESTING_DEPTH - 1) }, patch))).toBe(
      'no error'
    )
    expect(status(() => applyMergePatch({ x: target }, { x: { a: { b: 1 } } }))).toBe(422)
    expect(status(() => applyStrategicMergePatch({ x: target }, { x: { a: { b: 1 } } }, gvk))).toBe(
      422
    )
  })

  it('413 when a merge would pass the object limit', () => {
    const half = 'v'.repeat(600_000)
    expect(status(() => applyMergePatch({ data: { a: half } }, { data: { b: half } }))).toBe(413)
    expect(
      status(() => applyStrategicMergePatch({ data: { a: half } }, { data: { b: half } }, gvk))
    ).toBe(413)
  })
})
