/**
 * Tests for field selectors: parsing (`=`, `==`, `!=`, commas, escapes), matching over
 * metadata.name/namespace and caller-supplied per-kind fields (dotted paths and getters), and the
 * 400 answers for malformed selectors and unsupported fields.
 */
import { describe, expect, it } from 'vitest'
import {
  fieldValueAt,
  parseFieldRequirements,
  parseFieldSelector,
} from '../../../lib/kube/field-selector.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { failure } from '../../helpers/api-error.ts'

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'prod' },
  spec: { nodeName: 'node-a', hostNetwork: false, priority: 5 },
  status: { phase: 'Running' },
}
const event: KubeObject = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'e1', namespace: 'prod' },
  involvedObject: { kind: 'Pod', name: 'web-1' },
  reason: 'Started',
}
const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'a,b=c' } }

describe('parseFieldRequirements', () => {
  it.each([
    ['', []],
    ['metadata.name=x', [{ field: 'metadata.name', operator: '=', value: 'x' }]],
    ['metadata.name==x', [{ field: 'metadata.name', operator: '=', value: 'x' }]],
    ['metadata.name!=x', [{ field: 'metadata.name', operator: '!=', value: 'x' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    [
      'metadata.name=a,metadata.namespace!=b',
      [
        { field: 'metadata.name', operator: '=', value: 'a' },
        { field: 'metadata.namespace', operator: '!=', value: 'b' },
      ],
    ],
    ['metadata.name=a\\,b\\=c\\\\', [{ field: 'metadata.name', operator: '=', value: 'a,b=c\\' }]],
    [
      'a=b,,c=d',
      [
        { field: 'a', operator: '=', value: 'b' },
        { field: 'c', operator: '=', value: 'd' },
      ],
    ],
    ['x=a=b', [{ field: 'x', operator: '=', value: 'a=b' }]],
  ])('%j', (selector, want) => {
    expect(parseFieldRequirements(selector)).toEqual(want)
  })

  it.each([
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "can't understand 'c'"],
    ['a=b\\x', 'invalid escape sequence'],
    ['a=b\\', 'invalid escape sequence'],
  ])('400 for %j', (selector, message) => {
    const err = failure(() => parseFieldRequirements(selector))
    expect(err.code).toBe(400)
    expect(err.message).toContain(message)
  })
})

describe('parseFieldSelector', () => {
  it.each([
    ['', pod, true],
    ['metadata.name=web-1', pod, true],
    ['metadata.name=web-2', pod, false],
    ['metadata.name!=web-2', pod, true],
    ['metadata.namespace=prod', pod, true],
    ['metadata.namespace!=prod', pod, false],
    ['metadata.name=web-1,metadata.namespace=dev', pod, false],
    ['metadata.namespace=', node, true],
    ['metadata.name=a\\,b\\=c', node, true],
  ])('%j', (selector, obj, want) => {
    expect(parseFieldSelector(selector)(obj)).toBe(want)
  })

  it('supports per-kind fields given as dotted paths', () => {
    const podFields = ['spec.nodeName', 'status.phase', 'spec.hostNetwork', 'spec.priority']
    expect(parseFieldSelector('spec.nodeName=node-a,status.phase!=Pending', podFields)(pod)).toBe(
      true
    )
    expect(parseFieldSelector('spec.hostNetwork=false,spec.priority=5', podFields)(pod)).toBe(true)
    expect(parseFieldSelector('status.phase=', podFields)({ ...pod, status: {} })).toBe(true)
    const eventFields = ['involvedObject.name', 'involvedObject.kind', 'reason']
    expect(parseFieldSelector('involvedObject.name=web-1,reason=Started', eventFields)(event)).toBe(
      true
    )
    expect(parseFieldSelector('involvedObject.kind=Node', eventFields)(event)).toBe(false)
  })

  it('supports per-kind fields given as getters', () => {
    const getters = {
      'spec.nodeName': (o: KubeObject) => fieldValueAt(o, 'spec.nodeName')?.toUpperCase(),
    }
    expect(parseFieldSelector('spec.nodeName=NODE-A', [], getters)(pod)).toBe(true)
  })

  it('answers 400 for fields the kind does not support', () => {
    const err = failure(() => parseFieldSelector('spec.nodeName=x'))
    expect(err.code).toBe(400)
    expect(err.reason).toBe('BadRequest')
    expect(err.message).toBe('field label not supported: spec.nodeName')
  })
})

describe('fieldValueAt', () => {
  it('reads scalars as strings and nothing else', () => {
    expect(fieldValueAt(pod, 'spec.nodeName')).toBe('node-a')
    expect(fieldValueAt(pod, 'spec.priority')).toBe('5')
    expect(fieldValueAt(pod, 'spec')).toBeUndefined()
    expect(fieldValueAt(pod, 'spec.missing.deeper')).toBeUndefined()
    expect(fieldValueAt(pod, 'metadata.constructor')).toBeUndefined()
  })
})
