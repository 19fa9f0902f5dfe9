import { describe, expect, it } from 'vitest'
import { classLine, readsOf, scaled } from '../../bench/read-classes.ts'

describe('read classes', () => {
  it('keeps the reads, scales them and names the largest', () => {
    const reads = readsOf({
      'GetItem kv:tokens': 12,
      'UpdateItem kv:edge-leases': 60,
      'Query o:synctargets': 3,
      'BatchGetItem pb': 1,
    })
    expect(reads).toEqual({
      'GetItem kv:tokens': 12,
      'Query o:synctargets': 3,
      'BatchGetItem pb': 1,
    })
    expect(scaled(reads, 0.5)).toEqual({
      'GetItem kv:tokens': 6,
      'Query o:synctargets': 1.5,
      'BatchGetItem pb': 0.5,
    })
    expect(classLine(reads, 2)).toBe(
      'GetItem kv:tokens 12.00, Query o:synctargets 3.00, other 1.00'
    )
    expect(classLine({})).toBe('none')
  })
})
