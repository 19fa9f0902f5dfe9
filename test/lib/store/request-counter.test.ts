import { describe, expect, it } from 'vitest'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'

describe('request counter', () => {
  it('counts by operation, snapshots, totals and resets', () => {
    const counter = createRequestCounter()
    counter.add('PutItem')
    counter.add('PutItem')
    counter.add('Query')
    const snap = counter.snapshot()
    expect(snap).toEqual({ PutItem: 2, Query: 1 })
    expect(counter.total()).toBe(3)
    counter.add('Query')
    expect(snap).toEqual({ PutItem: 2, Query: 1 })
    counter.reset()
    expect(counter.snapshot()).toEqual({})
    expect(counter.total()).toBe(0)
  })

  it('counts commands given with their input by partition class too', () => {
    const counter = createRequestCounter()
    counter.add('GetItem', { Key: { pk: { S: 'kv#tokens' } } })
    counter.add('GetItem', { Key: { pk: { S: 'kv#tokens' } } })
    counter.add('UpdateItem', { Key: { pk: { S: 'kv#edge-leases/i1' } } })
    counter.add('Query')
    expect(counter.snapshot()).toEqual({ GetItem: 2, UpdateItem: 1, Query: 1 })
    expect(counter.byClass()).toEqual({ 'GetItem kv:tokens': 2, 'UpdateItem kv:edge-leases': 1 })
    counter.reset()
    expect(counter.byClass()).toEqual({})
  })
})
