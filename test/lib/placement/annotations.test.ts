/** The placement model's shared metadata keys: which are kcp's system keys. */
import { describe, expect, it } from 'vitest'
import { isSystemKey } from '../../../lib/placement/annotations.ts'

describe('isSystemKey', () => {
  const cases: [key: string, want: boolean][] = [
    ['kcp.io/cluster', true],
    ['tenancy.kcp.io/workspace', true],
    ['experimental.tenancy.kcp.io/owner', true],
    ['edge.kcp.io/projected', false],
    ['edge.kcp.io/customizer', false],
    ['app', false],
    ['example.com/kcp.io', false],
    ['kubernetes.io/metadata.name', false],
    ['notkcp.io/x', false],
  ]
  it.each(cases)('%s → %s', (key, want) => {
    expect(isSystemKey(key)).toBe(want)
  })
})
