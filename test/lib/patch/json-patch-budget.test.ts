import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import type { JsonValue } from '../../../lib/kube/types.ts'
import { MAX_JSON_PATCH_COPY_BYTES } from '../../../lib/patch/json-limits.ts'
import { applyJsonPatch } from '../../../lib/patch/json-patch.ts'

function refusal(target: JsonValue, patch: JsonValue[]): ApiError {
  try {
    applyJsonPatch(target, patch)
  } catch (e) {
    if (e instanceof ApiError) return e
    throw e
  }
  throw new Error('the patch was applied')
}

const doubling = (value: JsonValue, times: number): JsonValue[] => [
  { op: 'add', path: '/data/seed', value },
  ...Array.from({ length: times }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/d${i}` })),
]

describe('JSON patch budget', () => {
  it('stops the doubling bomb at the step that passes the object limit (413)', () => {
    const before = process.memoryUsage().heapUsed
    const e = refusal({ data: {} }, doubling('x'.repeat(100_000), 30))
    const grownMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20
    console.log(`doubling bomb in applyJsonPatch: heapUsed grew ${grownMiB.toFixed(1)} MiB`)
    expect(e.code).toBe(413)
    expect(e.message).toMatch(/^json patch operation 4 \(copy "\/data\/d3"\)/)
    expect(grownMiB).toBeLessThan(256)
  })

  it('lets a few doublings through while they stay under the limit', () => {
    const out = applyJsonPatch({ data: {} }, doubling('x'.repeat(1000), 5)) as {
      data: Record<string, unknown>
    }
    expect(Object.keys(out.data)).toHaveLength(6)
  })

  it('refuses copies adding up to more than the copy budget (422), even with removes between', () => {
    const big = 'y'.repeat(400_000)
    const ops: JsonValue[] = []
    for (let i = 0; i < 8; i++)
      ops.push({ op: 'copy', from: '/big', path: '/c' }, { op: 'remove', path: '/c' })
    const e = refusal({ big }, ops)
    expect(e.code).toBe(422)
    expect(e.message).toContain(String(MAX_JSON_PATCH_COPY_BYTES))
    expect(e.message).toMatch(/^json patch operation 14 /)
  })

  it('counts what replace, remove and overwriting add take away', () => {
    const half = 'z'.repeat(600_000)
    const ops: JsonValue[] = [
      { op: 'replace', path: '/a', value: half },
      { op: 'add', path: '/a', value: half },
      { op: 'remove', path: '/a' },
      { op: 'add', path: '/b', value: half },
    ]
    expect(applyJsonPatch({ a: half }, ops)).toEqual({ b: half })
    expect(refusal({ a: half }, [{ op: 'add', path: '/b', value: half }]).code).toBe(413)
  })

  it('refuses a patch that nests the object past the limit (422)', () => {
    const ops: JsonValue[] = [{ op: 'add', path: '/x', value: { x: { x: { x: 1 } } } }]
    let path = '/x/x/x/x'
    for (let i = 0; i < 12; i++) {
      ops.push({ op: 'copy', from: '/x', path })
      path += '/x'.repeat(2 ** (i + 2))
    }
    expect(refusal({}, ops).code).toBe(422)
  })

  it('refuses moves that push a subtree past the depth limit (422)', () => {
    let value: JsonValue = 1
    for (let i = 0; i < 200; i++) value = { x: value }
    const target = { a: value, b: { c: { d: {} } } } as JsonValue
    // 201 levels moved three levels down: 205 deep, within the limit
    expect(applyJsonPatch(target, [{ op: 'move', from: '/a', path: '/b/c/d/e' }])).toBeTruthy()
    // moved 60 levels down: past the limit
    let long: JsonValue = {}
    for (let i = 0; i < 60; i++) long = { y: long }
    const far = `/l${'/y'.repeat(59)}/z`
    expect(refusal({ a: value, l: long }, [{ op: 'move', from: '/a', path: far }]).code).toBe(422)
  })
})
