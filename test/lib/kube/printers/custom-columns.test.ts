import { describe, expect, it } from 'vitest'
import {
  CREATED_AT_PRINTER,
  CUSTOM_RESOURCE_DEFAULT_PRINTER,
  customColumnsPrinter,
  toCell,
} from '../../../../lib/kube/printers/custom-columns.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:05:00Z')
const widget: KubeObject = {
  apiVersion: 'ex.io/v1',
  kind: 'Widget',
  metadata: { name: 'w1', creationTimestamp: '2025-01-01T00:00:00Z' },
  spec: { size: 3.9, ratio: 0.5, on: true, tags: ['a', 'b'], meta: { k: 'v' } },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
}

describe('customColumnsPrinter', () => {
  const printer = customColumnsPrinter([
    { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    {
      name: 'Ready',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Ready")].status',
      description: 'ready?',
    },
    { name: 'Tags', type: 'string', jsonPath: '.spec.tags', priority: 1 },
    { name: 'Tag', type: 'string', jsonPath: '.spec.tags[*]' },
    { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
    { name: 'Broken', type: 'string', jsonPath: '..deep' },
    { name: 'Born', type: 'date', jsonPath: '.metadata.creationTimestamp', format: 'date-time' },
  ])

  it('declares NAME then the CRD columns as given', () => {
    expect(printer.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Size', 'integer', 0],
      ['Ready', 'string', 0],
      ['Tags', 'string', 1],
      ['Tag', 'string', 0],
      ['Missing', 'string', 0],
      ['Broken', 'string', 0],
      ['Born', 'date', 0],
    ])
    expect(printer.columns[1]?.description).toBe(
      'Custom resource definition column (in JSONPath format): .spec.size'
    )
    expect(printer.columns[2]?.description).toBe('ready?')
    expect(printer.columns[7]?.format).toBe('date-time')
  })

  it('evaluates each path, keeping the first value', () => {
    expect(printer.row(widget, { now: NOW }).cells).toEqual([
      'w1',
      3,
      'True',
      '[a b]',
      'a',
      null,
      null,
      '5m',
    ])
  })
})

describe('toCell', () => {
  it('converts values like kube, null when the type does not fit', () => {
    expect(toCell('string', { b: 1, a: [true, null] }, NOW)).toBe('map[a:[true <nil>] b:1]')
    expect(toCell('string', 4, NOW)).toBe('4')
    expect(toCell('number', 0.5, NOW)).toBe(0.5)
    expect(toCell('number', '0.5', NOW)).toBeNull()
    expect(toCell('integer', 'x', NOW)).toBeNull()
    expect(toCell('boolean', true, NOW)).toBe(true)
    expect(toCell('boolean', 'true', NOW)).toBeNull()
    expect(toCell('date', 'not a time', NOW)).toBe('<invalid>')
    expect(toCell('date', 5, NOW)).toBeNull()
    expect(toCell('string', null, NOW)).toBeNull()
  })
})

describe('default printers', () => {
  it('gives custom resources NAME and AGE', () => {
    expect(CUSTOM_RESOURCE_DEFAULT_PRINTER.columns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Age', 'date'],
    ])
    expect(CUSTOM_RESOURCE_DEFAULT_PRINTER.row(widget, { now: NOW }).cells).toEqual(['w1', '5m'])
  })

  it('gives Role-like kinds NAME and CREATED AT', () => {
    expect(CREATED_AT_PRINTER.columns.map((c) => c.name)).toEqual(['Name', 'Created At'])
    const at = (creationTimestamp?: string) =>
      CREATED_AT_PRINTER.row(
        { ...widget, metadata: { name: 'r', ...(creationTimestamp ? { creationTimestamp } : {}) } },
        { now: NOW }
      ).cells
    expect(at('2025-01-01T00:00:00Z')).toEqual(['r', '2025-01-01T00:00:00Z'])
    expect(at('2025-01-01T02:00:00+02:00')).toEqual(['r', '2025-01-01T00:00:00Z'])
    expect(at()).toEqual(['r', '0001-01-01T00:00:00Z'])
  })
})
