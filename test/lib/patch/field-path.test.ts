/**
 * Tests for field paths: element syntax of FieldsV1, path keys, prefixes and the way kube prints
 * paths in conflict messages.
 */
import { describe, expect, it } from 'vitest'
import {
  elementValue,
  fieldElement,
  formatPath,
  isProperPrefix,
  keyElement,
  pathFromKey,
  pathKey,
  valueElement,
} from '../../../lib/patch/field-path.ts'

describe('field paths', () => {
  it('builds FieldsV1 elements with sorted keys', () => {
    expect(fieldElement('spec')).toBe('f:spec')
    expect(keyElement({ protocol: 'TCP', containerPort: 80 })).toBe(
      'k:{"containerPort":80,"protocol":"TCP"}'
    )
    expect(valueElement('finalizer.example.com')).toBe('v:"finalizer.example.com"')
    expect(elementValue('k:{"name":"a"}')).toEqual({ name: 'a' })
    expect(elementValue('k:{oops')).toBeUndefined()
  })

  it('round-trips path keys and checks prefixes', () => {
    const path = ['f:a', 'k:{"name":"x"}', 'f:b']
    expect(pathFromKey(pathKey(path))).toEqual(path)
    expect(isProperPrefix(['f:a'], path)).toBe(true)
    expect(isProperPrefix(path, path)).toBe(false)
    expect(isProperPrefix(['f:b'], path)).toBe(false)
  })

  it.each([
    [['f:data', 'f:a'], '.data.a'],
    [
      ['f:spec', 'f:containers', 'k:{"name":"app"}', 'f:image'],
      '.spec.containers[name="app"].image',
    ],
    [
      ['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'],
      '.ports[containerPort=80,protocol="TCP"]',
    ],
    [['f:metadata', 'f:finalizers', 'v:"a"'], '.metadata.finalizers[="a"]'],
    [['f:l', 'i:3'], '.l[3]'],
  ])('formats %j as %s', (path, want) => {
    expect(formatPath(path)).toBe(want)
  })
})
