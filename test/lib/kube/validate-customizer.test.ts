import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { customizerCauses } from '../../../lib/kube/validate-customizer.ts'

function customizer(replacements: unknown, annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'Customizer',
    metadata: { name: 'c', namespace: 'n', ...(annotations ? { annotations } : {}) },
    replacements,
  } as unknown as KubeObject
}

const EXPAND = { 'edge.kcp.io/expand-parameters': 'true' }
const fields = (o: KubeObject) => customizerCauses(o).map((c) => c.field)

describe('customizerCauses', () => {
  it('accepts what translate can apply', () => {
    const ok = customizer([
      { path: '$.spec.template.spec.containers.0.env.0.value', value: '"env is prod"' },
      { path: "$.data['a.b']", value: '{"x": [1, 2]}' },
      { path: '$..image', value: 'null' },
      { path: '$.spec.replicas', value: '3' },
    ])
    expect(customizerCauses(ok)).toEqual([])
  })

  it('names an unparsable path and a value that is not JSON text', () => {
    const bad = customizer([
      { path: '$.a[?(@.x)]', value: '1' },
      { path: '$.b', value: 'not json' },
      { path: '$.c.', value: "'single'" },
    ])
    const causes = customizerCauses(bad)
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['replacements[0].path', 'FieldValueInvalid'],
      ['replacements[1].value', 'FieldValueInvalid'],
      ['replacements[2].path', 'FieldValueInvalid'],
      ['replacements[2].value', 'FieldValueInvalid'],
    ])
    expect(causes[0]?.message).toMatch(/^Invalid value: "\$\.a\[\?\(@\.x\)\]": invalid JSONPath/)
    expect(causes[1]?.message).toMatch(/^Invalid value: "not json": must be JSON text/)
  })

  it('leaves what the schema refuses to the schema', () => {
    expect(fields(customizer([{ path: 'spec.x', value: '1' }, { path: 5 }, 'x']))).toEqual([])
    expect(fields(customizer('not a list'))).toEqual([])
    expect(fields(customizer(undefined))).toEqual([])
  })

  it('checks parameterized strings only for what fails at every destination', () => {
    const withParams = customizer(
      [
        { path: '$.spec.%(field)', value: '%(replicas)' },
        { path: '$.data.x', value: '"in %(env) at 50%%"' },
        { path: '$.data.y', value: '"%(unterminated"' },
        { path: '$.data.z', value: '"%()"' },
        { path: '$.data.w', value: 'bare %% text' },
      ],
      EXPAND
    )
    expect(fields(withParams)).toEqual([
      'replacements[2].value',
      'replacements[3].value',
      'replacements[4].value',
    ])
    // without the annotation, the same strings are taken literally
    expect(fields(customizer([{ path: '$.data.x', value: '%(replicas)' }]))).toEqual([
      'replacements[0].value',
    ])
  })
})
