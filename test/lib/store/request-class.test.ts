import { describe, expect, it } from 'vitest'
import { partitionClass, requestClass } from '../../../lib/store/request-class.ts'

const s = (v: string) => ({ S: v })

describe('request class', () => {
  it('names the kind of partition of each key layout', () => {
    expect(partitionClass('kv#tokens')).toBe('kv:tokens')
    expect(partitionClass('kv#edge-leases/abc123')).toBe('kv:edge-leases')
    expect(partitionClass('o#root:inv#edge.kcp.io/synctargets')).toBe('o:synctargets')
    expect(partitionClass('o#/configmaps')).toBe('o:configmaps')
    expect(partitionClass('l#root:ws#apps/deployments')).toBe('l:deployments')
    expect(partitionClass('mf#inv-mb-1')).toBe('mf')
    expect(partitionClass('pb#0f0f')).toBe('pb')
    expect(partitionClass('meta')).toBe('meta')
  })

  it('finds the first key of each command shape', () => {
    expect(requestClass({ Key: { pk: s('kv#tokens'), sk: s('h') } })).toBe('kv:tokens')
    expect(requestClass({ Item: { pk: s('mf#x'), sk: s('-') } })).toBe('mf')
    expect(
      requestClass({ ExpressionAttributeValues: { ':pk': s('o#apps/deployments'), ':x': s('1') } })
    ).toBe('o:deployments')
    expect(
      requestClass({ RequestItems: { t: { Keys: [{ pk: s('pb#1') }, { pk: s('mf#2') }] } } })
    ).toBe('pb')
    expect(
      requestClass({ RequestItems: { t: [{ PutRequest: { Item: { pk: s('blob#7') } } }] } })
    ).toBe('blob')
    expect(
      requestClass({ TransactItems: [{ Update: { Key: { pk: s('meta'), sk: s('rv') } } }] })
    ).toBe('meta')
  })

  it('answers ? for what names no key', () => {
    expect(requestClass(undefined)).toBe('?')
    expect(requestClass('GetItem')).toBe('?')
    expect(requestClass({ TableName: 't' })).toBe('?')
    expect(requestClass({ RequestItems: { t: [] } })).toBe('?')
  })
})
