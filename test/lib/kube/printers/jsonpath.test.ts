import { describe, expect, it } from 'vitest'
import { evaluateJsonPath, parseJsonPath } from '../../../../lib/kube/printers/jsonpath.ts'

const obj = {
  metadata: { labels: { 'tenancy.kcp.io/phase': 'Ready', region: 'eu' } },
  spec: {
    replicas: 3,
    containers: [
      { name: 'a', image: 'x' },
      { name: 'b', image: 'y' },
    ],
  },
  status: {
    conditions: [
      { type: 'Synced', status: 'False' },
      { type: 'Ready', status: 'True', n: 2 },
    ],
  },
}
const get = (expr: string) => {
  const steps = parseJsonPath(expr)
  if (!steps) throw new Error(`unparsed: ${expr}`)
  return evaluateJsonPath(steps, obj)
}

describe('jsonpath subset', () => {
  it('follows fields, indexes and wildcards', () => {
    expect(get('.spec.replicas')).toEqual([3])
    expect(get('{.spec.replicas}')).toEqual([3])
    expect(get('spec.replicas')).toEqual([3])
    expect(get('.spec.containers[1].name')).toEqual(['b'])
    expect(get('.spec.containers[-1].image')).toEqual(['y'])
    expect(get('.spec.containers[*].image')).toEqual(['x', 'y'])
    expect(get('.metadata.labels.*')).toEqual(['Ready', 'eu'])
    expect(get('.spec.containers[5].name')).toEqual([])
    expect(get('.spec.missing.deeper')).toEqual([])
  })

  it('reads quoted and escaped keys', () => {
    expect(get(".metadata.labels['tenancy.kcp.io/phase']")).toEqual(['Ready'])
    expect(get('.metadata.labels["region"]')).toEqual(['eu'])
    expect(get('.metadata.labels.tenancy\\.kcp\\.io/phase')).toEqual(['Ready'])
  })

  it('filters lists', () => {
    expect(get('.status.conditions[?(@.type=="Ready")].status')).toEqual(['True'])
    expect(get(".status.conditions[?(@.type != 'Ready')].type")).toEqual(['Synced'])
    expect(get('.status.conditions[?(@.n==2)].type')).toEqual(['Ready'])
    expect(get('.status.conditions[?(@.n)].type')).toEqual(['Ready'])
    expect(get('.spec[?(@.x=="y")]')).toEqual([])
  })

  it('rejects what it does not support', () => {
    for (const bad of ['..name', '.a[1:2]', '.a[?(@.x > 1)]', '.a[', '.a[foo]', '.a[?(@.x==)]'])
      expect(parseJsonPath(bad), bad).toBeUndefined()
  })
})
