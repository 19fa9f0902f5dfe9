import { describe, expect, it } from 'vitest'
import { createBodyWriteCounter, isBodyPut } from '../../bench/fan-out-body-writes.ts'

const put = (pk: string) => ({ op: 'PutItem', input: { Item: { pk: { S: pk }, sk: { S: '-' } } } })

describe('isBodyPut', () => {
  it.each([
    [put('pb#abc'), true],
    [put('mf#mailbox'), false],
    [put('o#root#/configmaps'), false],
    [{ op: 'GetItem', input: { Key: { pk: { S: 'pb#abc' } } } }, false],
    [{ op: 'PutItem', input: undefined }, false],
  ])('%j -> %s', (call, want) => {
    expect(isBodyPut(call)).toBe(want)
  })
})

describe('createBodyWriteCounter', () => {
  it('counts sent body puts and, separately, the ones that succeeded', () => {
    const c = createBodyWriteCounter()
    c.observe({ ...put('pb#a'), phase: 'before' })
    c.observe({ ...put('pb#a'), phase: 'after' })
    c.observe({ ...put('pb#b'), phase: 'before' })
    c.observe({ ...put('mf#m'), phase: 'before' })
    c.observe({ ...put('mf#m'), phase: 'after' })
    expect(c.snapshot()).toEqual({ attempted: 2, stored: 1 })
    c.reset()
    expect(c.snapshot()).toEqual({ attempted: 0, stored: 0 })
  })
})
