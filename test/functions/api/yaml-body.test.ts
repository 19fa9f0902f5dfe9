import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { decodeYaml, yamlDepthBound } from '../../../functions/api/yaml-body.ts'
import { ApiError } from '../../../lib/errors.ts'
import { MAX_NESTING_DEPTH } from '../../../lib/patch/json-limits.ts'
import { measureJson } from '../../../lib/patch/json-measure.ts'

/** A small deterministic generator of nested values (no randomness library needed). */
function generator(seed: number) {
  let s = seed
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s / 0x7fffffff
  }
  const value = (depth: number): unknown => {
    const r = next()
    if (depth > 10 || r < 0.25) return next() < 0.5 ? `s[${Math.floor(next() * 9)}` : 'two\nlines'
    const n = Math.floor(next() * 4)
    if (r < 0.6)
      return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(depth + 1)]))
    return Array.from({ length: n }, () => value(depth + 1))
  }
  return value
}

function code(f: () => unknown): number | string {
  try {
    f()
    return 'ok'
  } catch (e) {
    return e instanceof ApiError ? e.code : String(e)
  }
}

describe('yamlDepthBound', () => {
  it('is never below the true depth and at most one above, in every YAML style', () => {
    const value = generator(7)
    const styles = [{}, { collectionStyle: 'flow' as const }, { indentSeq: false }, { indent: 4 }]
    for (let i = 0; i < 500; i++) {
      const v = value(0)
      const depth = measureJson(v).depth
      for (const style of styles) {
        const bound = yamlDepthBound(stringify(v, style))
        expect(bound).toBeGreaterThanOrEqual(depth)
        expect(bound).toBeLessThanOrEqual(depth + 1)
      }
    }
  })

  it('bounds compact sequences, flow inside blocks and ignores brackets in scalars', () => {
    expect(yamlDepthBound('- - - - 1\n')).toBeGreaterThanOrEqual(4)
    expect(yamlDepthBound('a:\n  b: [1, [2, {c: 3}]]\n')).toBeGreaterThanOrEqual(4)
    expect(yamlDepthBound(`k: |\n  ${'['.repeat(500)}\nq: "${'{'.repeat(500)}"\n`)).toBeLessThan(5)
  })

  it('stops early on a 1,000,000-level flow document', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`
    expect(yamlDepthBound(text, 300)).toBe(301)
  })
})

describe('decodeYaml', () => {
  it('decodes to plain JSON values without shared members', () => {
    const v = decodeYaml('a: &x {p: 1}\nb: *x\n', 1000) as { a: object; b: object }
    expect(v).toEqual({ a: { p: 1 }, b: { p: 1 } })
    expect(v.a).not.toBe(v.b)
  })

  it('refuses depth past the limit before composing, in block and flow style', () => {
    let block = ''
    for (let i = 0; i <= MAX_NESTING_DEPTH + 10; i++) block += `${' '.repeat(i)}a:\n`
    expect(code(() => decodeYaml(block, 3e6))).toBe(400)
    expect(code(() => decodeYaml('- '.repeat(100_000), 3e6))).toBe(400)
    expect(
      code(() => decodeYaml(`x: ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, 3e6))
    ).toBe(400)
  })

  it('refuses alias expansion past the byte limit with 413', () => {
    const doc = `s: &s "${'q'.repeat(1000)}"\nl: [${Array(50).fill('*s').join(',')}]\n`
    expect(code(() => decodeYaml(doc, 10_000))).toBe(413)
    expect(code(() => decodeYaml(doc, 100_000))).toBe('ok')
  })

  it('refuses malformed YAML with 400', () => {
    expect(code(() => decodeYaml('a: [1, 2\n', 1000))).toBe(400)
    expect(code(() => decodeYaml('a: *missing\n', 1000))).toBe(400)
  })
})

describe('large mappings', () => {
  it('decodes 30,000 keys, block or JSON, without quadratic work, and still refuses duplicate keys', () => {
    const keys = Array.from({ length: 30_000 }, (_, i) => `k${i}`)
    const block = `metadata:\n  labels:\n${keys.map((k) => `    ${k}: v`).join('\n')}\n`
    const json = JSON.stringify({
      metadata: { labels: Object.fromEntries(keys.map((k) => [k, 'v'])) },
    })
    for (const text of [block, json]) {
      const out = decodeYaml(text, 3 * 1024 * 1024) as {
        metadata: { labels: Record<string, string> }
      }
      expect(Object.keys(out.metadata.labels)).toHaveLength(30_000)
    }
    expect(() => decodeYaml('a: 1\nb:\n  c: 1\n  c: 2\n', 1024)).toThrow(
      'mapping key "c" already defined'
    )
    expect(() => decodeYaml('{a: 1, a: 2}', 1024)).toThrow('already defined')
  })
})
