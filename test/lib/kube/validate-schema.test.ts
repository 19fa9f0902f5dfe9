import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import { checkAgainstSchema } from '../../../lib/kube/validate-schema.ts'

const schema: JsonObject = {
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        color: { type: 'string', enum: ['red', 'blue'] },
        name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
        port: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        partly: {
          type: 'object',
          properties: { a: { type: 'string' } },
          'x-kubernetes-preserve-unknown-fields': true,
        },
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object' } },
        },
        maybe: { type: 'string', nullable: true },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        closed: { type: 'object' },
        either: {
          anyOf: [{ required: ['a'] }, { required: ['b'] }],
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'string' } },
        },
      },
    },
  },
}

describe('checkAgainstSchema', () => {
  it('accepts a valid value', () => {
    const value = {
      spec: {
        size: 3,
        color: 'red',
        name: 'abc',
        port: 'http',
        tags: ['a'],
        labels: { x: 'y' },
        free: { anything: [1, { deep: true }] },
        partly: { a: 'x', other: 1 },
        embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, spec: {} },
        maybe: null,
        ratio: 0.5,
        on: false,
        either: { a: 'x' },
      },
    }
    expect(checkAgainstSchema(value, schema)).toEqual({
      causes: [],
      unknownFields: [],
      unknownPaths: [],
    })
  })

  it('reports required, type, enum and bounds with field paths', () => {
    const { causes } = checkAgainstSchema(
      {
        spec: {
          color: 'green',
          name: 'TOOLONG',
          port: 1.5,
          tags: ['a', 'b', 'c'],
          labels: { x: 1 },
          ratio: 'x',
          on: 'yes',
        },
      },
      schema
    )
    const byField = Object.fromEntries(causes.map((c) => [c.field, c]))
    expect(byField['spec.size']?.reason).toBe('FieldValueRequired')
    expect(byField['spec.color']).toEqual({
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "green": supported values: "red", "blue"',
      field: 'spec.color',
    })
    expect(causes.filter((c) => c.field === 'spec.name').map((c) => c.reason)).toEqual([
      'FieldValueTooLong',
      'FieldValueInvalid',
    ])
    expect(byField['spec.port']?.reason).toBe('FieldValueTypeInvalid')
    expect(byField['spec.tags']?.reason).toBe('FieldValueTooMany')
    expect(byField['spec.labels[x]']?.message).toBe(
      'Invalid value: "integer": spec.labels[x] in body must be of type string: "integer"'
    )
    expect(byField['spec.ratio']?.reason).toBe('FieldValueTypeInvalid')
    expect(byField['spec.on']?.reason).toBe('FieldValueTypeInvalid')
  })

  it('reports numbers out of range', () => {
    const { causes } = checkAgainstSchema({ spec: { size: 11 } }, schema)
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 11: spec.size in body should be less than or equal to 10',
        field: 'spec.size',
      },
    ])
    expect(checkAgainstSchema({ spec: { size: 1.5 } }, schema).causes[0]?.reason).toBe(
      'FieldValueTypeInvalid'
    )
  })

  it('finds unknown fields, except where unknown fields are preserved', () => {
    const { unknownFields, causes } = checkAgainstSchema(
      {
        spec: { size: 1, bogus: 1, closed: { x: 1 }, partly: { z: 1 }, free: { z: 1 } },
        extra: true,
      },
      schema
    )
    expect(causes).toEqual([])
    expect(unknownFields).toEqual(['spec.bogus', 'spec.closed.x', 'extra'])
  })

  it('gives each unknown field as segments too, list indexes and map keys included', () => {
    const items = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        map: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { a: { type: 'string' } } },
        },
      },
    }
    const { unknownFields, unknownPaths } = checkAgainstSchema(
      { list: [{ a: 'x' }, { a: 'y', b: 1 }], map: { 'k.1': { a: 'x', c: 2 } } },
      items
    )
    expect(unknownFields).toEqual(['list[1].b', 'map[k.1].c'])
    expect(unknownPaths).toEqual([
      ['list', 1, 'b'],
      ['map', 'k.1', 'c'],
    ])
  })

  it('requires a missing top-level required field and tolerates null everywhere', () => {
    expect(checkAgainstSchema({}, schema).causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec' },
    ])
    expect(checkAgainstSchema({ spec: { size: 1, color: null } }, schema).causes).toEqual([])
  })
})
