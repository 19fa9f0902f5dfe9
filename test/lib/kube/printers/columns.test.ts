import { describe, expect, it } from 'vitest'
import {
  AGE_COLUMN,
  ageOf,
  cellPrinter,
  column,
  NAME_COLUMN,
  nameOf,
} from '../../../../lib/kube/printers/columns.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const obj: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', creationTimestamp: '2025-01-01T00:00:00Z' },
}
const ctx = { now: new Date('2025-01-01T00:00:30Z') }

describe('columns', () => {
  it('marks the name column and wide columns', () => {
    expect(NAME_COLUMN).toMatchObject({ name: 'Name', type: 'string', format: 'name', priority: 0 })
    expect(AGE_COLUMN).toMatchObject({ name: 'Age', type: 'string', format: '' })
    expect(column('IP', 'string', 'd', 1).priority).toBe(1)
  })

  it('builds cell printers and reads name and age', () => {
    const p = cellPrinter([NAME_COLUMN, AGE_COLUMN], (o, c) => [nameOf(o), ageOf(o, c)])
    expect(p.row(obj, ctx)).toEqual({ cells: ['x', '30s'] })
    expect(nameOf({ ...obj, metadata: {} })).toBe('')
    expect(ageOf({ ...obj, metadata: {} }, ctx)).toBe('<unknown>')
  })
})
