/** The placement model's shared metadata keys: which are kcp's system keys, which travel. */
import { describe, expect, it } from 'vitest'
import {
  EXECUTING_COUNT_ANNOTATION,
  isSystemKey,
  STATUS_FROM_ANNOTATION,
  travelling,
  travels,
} from '../../../lib/placement/annotations.ts'

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

describe('travels and travelling', () => {
  it('keep kcp system keys and the center-only executing count and status source out of a copy', () => {
    expect(travels('app')).toBe(true)
    expect(travels('edge.kcp.io/customizer')).toBe(true)
    expect(travels('kcp.io/cluster')).toBe(false)
    expect(travels(EXECUTING_COUNT_ANNOTATION)).toBe(false)
    expect(travels(STATUS_FROM_ANNOTATION)).toBe(false)
    const annotations = {
      'kcp.io/cluster': 'ws1',
      [EXECUTING_COUNT_ANNOTATION]: '2',
      [STATUS_FROM_ANNOTATION]: '2/2',
      note: 'hi',
      'edge.kcp.io/expand-parameters': 'true',
    }
    expect(travelling(annotations)).toEqual({ note: 'hi', 'edge.kcp.io/expand-parameters': 'true' })
    expect(travelling({ 'kcp.io/cluster': 'ws1' })).toBeUndefined()
    expect(travelling(undefined)).toBeUndefined()
  })
})
