/**
 * ObjectMeta's Go decoding errors: each field's Go type in UnmarshalTypeError's words, nested
 * structs named by their own type with the JSON path, nulls accepted, the first type error kept,
 * a time error winning over any type error.
 */
import { describe, expect, it } from 'vitest'
import { metadataDecodeError } from '../../../lib/kube/decode-meta.ts'

const into = (v: string, path: string, type: string, struct = 'ObjectMeta') =>
  `json: cannot unmarshal ${v} into Go struct field ${struct}.${path} of type ${type}`

describe('metadataDecodeError', () => {
  it('accepts well-typed metadata and nulls', () => {
    const meta = {
      name: 'a',
      labels: { a: 'b' },
      finalizers: ['x/y'],
      generation: 3,
      creationTimestamp: null,
      ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'n', uid: 'u', controller: true }],
      managedFields: [{ manager: 'm', time: '2024-01-01T00:00:00Z', fieldsV1: { 'f:a': {} } }],
      unknownField: 5,
    }
    expect(metadataDecodeError(meta)).toBeUndefined()
  })

  it.for([
    [{ name: 5 }, into('number', 'metadata.name', 'string')],
    [{ uid: true }, into('bool', 'metadata.uid', 'types.UID')],
    [{ generation: 1.5 }, into('number 1.5', 'metadata.generation', 'int64')],
    [{ labels: ['x'] }, into('array', 'metadata.labels', 'map[string]string')],
    [{ annotations: { a: 1 } }, into('number', 'metadata.annotations', 'string')],
    [{ finalizers: 'x' }, into('string', 'metadata.finalizers', '[]string')],
    [
      { ownerReferences: [{ controller: 'yes' }] },
      into('string', 'metadata.ownerReferences.controller', 'bool', 'OwnerReference'),
    ],
    [
      { managedFields: [{ operation: 2 }] },
      into(
        'number',
        'metadata.managedFields.operation',
        'v1.ManagedFieldsOperationType',
        'ManagedFieldsEntry'
      ),
    ],
    [{ managedFields: ['x'] }, into('string', 'metadata.managedFields', 'v1.ManagedFieldsEntry')],
    [{ creationTimestamp: 7 }, 'json: cannot unmarshal number into Go value of type string'],
  ] as const)('refuses %j', ([meta, msg]) => {
    expect(metadataDecodeError(meta as Record<string, unknown>)).toBe(msg)
  })

  it('keeps the first type error, and a time error wins', () => {
    expect(metadataDecodeError({ name: 1, namespace: 2 })).toBe(
      into('number', 'metadata.name', 'string')
    )
    expect(metadataDecodeError({ name: 1, deletionTimestamp: 'never' })).toContain(
      'parsing time "never"'
    )
  })
})
