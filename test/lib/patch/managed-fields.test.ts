/**
 * Tests for managedFields entries: identity (apiVersion counts only for Update), decoding with
 * duplicate merging, encoding order and dropping of empty managers, manager descriptions.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { fieldSetOf } from '../../../lib/patch/field-set.ts'
import {
  decodeManagedFields,
  describeManager,
  encodeManagedFields,
  type Manager,
  managerIdentity,
  withManagedFields,
} from '../../../lib/patch/managed-fields.ts'

const m = (over: Partial<Manager>): Manager => ({
  manager: 'm',
  operation: 'Update',
  apiVersion: 'v1',
  fields: fieldSetOf([['f:a']]),
  ...over,
})

describe('managed fields', () => {
  it('identifies Apply managers without their apiVersion', () => {
    expect(managerIdentity(m({ operation: 'Apply', apiVersion: 'v1' }))).toBe(
      managerIdentity(m({ operation: 'Apply', apiVersion: 'v2' }))
    )
    expect(managerIdentity(m({ apiVersion: 'v1' }))).not.toBe(
      managerIdentity(m({ apiVersion: 'v2' }))
    )
    expect(managerIdentity(m({ subresource: 'status' }))).not.toBe(managerIdentity(m({})))
  })

  it('merges duplicate entries when decoding', () => {
    const decoded = decodeManagedFields([
      {
        manager: 'x',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:a': {} },
      },
      {
        manager: 'x',
        operation: 'Apply',
        apiVersion: 'v2',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:b': {} },
      },
    ])
    expect(decoded).toHaveLength(1)
    expect(decoded[0]?.fields).toEqual(fieldSetOf([['f:a'], ['f:b']]))
  })

  it('sorts like kube and drops managers without fields', () => {
    const entries = encodeManagedFields([
      m({ manager: 'u2', time: '2026-01-02T00:00:00Z' }),
      m({ manager: 'u1', time: '2026-01-02T00:00:00Z' }),
      m({ manager: 'old', time: '2026-01-01T00:00:00Z' }),
      m({ manager: 'a', operation: 'Apply', time: '2026-01-03T00:00:00Z', subresource: 'status' }),
      m({ manager: 'empty', fields: new Set() }),
    ])
    expect(entries.map((e) => e.manager)).toEqual(['a', 'old', 'u1', 'u2'])
    expect(entries[0]).toEqual({
      manager: 'a',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2026-01-03T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:a': {} },
      subresource: 'status',
    })
  })

  it('describes managers like kube conflict messages', () => {
    expect(describeManager(m({ operation: 'Apply' }))).toBe('"m"')
    expect(describeManager(m({ apiVersion: 'apps/v1' }))).toBe('"m" using apps/v1')
    expect(describeManager(m({ subresource: 'status' }))).toBe(
      '"m" with subresource "status" using v1'
    )
  })

  it('sets or removes metadata.managedFields on a copy', () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'x', managedFields: [{}] },
    }
    expect(withManagedFields(obj, []).metadata.managedFields).toBeUndefined()
    expect(withManagedFields(obj, [m({})]).metadata.managedFields).toHaveLength(1)
    expect(obj.metadata.managedFields).toEqual([{}])
  })
})
