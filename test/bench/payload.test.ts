import { describe, expect, it } from 'vitest'
import { configMap, filler, rawItem } from '../../bench/payload.ts'

describe('filler', () => {
  it('has the asked length and is deterministic', () => {
    expect(filler(0)).toBe('')
    expect(filler(50)).toHaveLength(50)
    expect(filler(50, 3)).toBe(filler(50, 3))
    expect(filler(50, 3)).not.toBe(filler(50, 4))
    expect(filler(100)).toMatch(/^[a-z0-9]+$/)
  })
})

describe('rawItem', () => {
  it('is about the asked size', () => {
    const item = rawItem('raw#seq', 'item-1', 1024)
    expect(item.pk).toEqual({ S: 'raw#seq' })
    expect(item.sk).toEqual({ S: 'item-1' })
    const size = JSON.stringify(item).length
    expect(size).toBeGreaterThan(950)
    expect(size).toBeLessThan(1100)
  })

  it('keeps a payload for tiny sizes', () => {
    expect(rawItem('p', 's', 1).data?.S).toHaveLength(1)
  })
})

describe('configMap', () => {
  it('is a ConfigMap whose JSON is the asked size', () => {
    const cm = configMap('ns', 'cm-1', 1024, 1)
    expect(cm.kind).toBe('ConfigMap')
    expect(cm.metadata).toMatchObject({ name: 'cm-1', namespace: 'ns' })
    expect(JSON.stringify(cm).length).toBe(1024)
  })

  it('stays valid when the size is below the overhead', () => {
    const cm = configMap('ns', 'cm-1', 10)
    expect(cm.data.payload).toHaveLength(1)
  })
})
