import { describe, expect, it } from 'vitest'
import { ConditionSchema, LabelSelectorSchema, ObjectMetaSchema } from '../../../lib/apis/meta.ts'

describe('LabelSelectorSchema', () => {
  it('accepts the kube shapes', () => {
    expect(LabelSelectorSchema.safeParse({}).success).toBe(true)
    expect(
      LabelSelectorSchema.safeParse({
        matchLabels: { env: 'prod' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a'] },
          { key: 'edge.kcp.io/x', operator: 'DoesNotExist' },
        ],
      }).success
    ).toBe(true)
  })

  it('flags operators and values with kube reasons', () => {
    const result = LabelSelectorSchema.safeParse({
      matchExpressions: [
        { key: 'a', operator: 'NotIn', values: [] },
        { key: 'a', operator: 'DoesNotExist', values: ['x'] },
      ],
    })
    const issues = result.error?.issues ?? []
    expect(
      issues.map((i) => [i.path.join('.'), (i as { params?: { reason?: string } }).params?.reason])
    ).toEqual([
      ['matchExpressions.0.values', 'FieldValueRequired'],
      ['matchExpressions.1.values', 'FieldValueForbidden'],
    ])
  })
})

describe('ConditionSchema and ObjectMetaSchema', () => {
  it('conditions need type and a True/False/Unknown status', () => {
    expect(ConditionSchema.safeParse({ type: 'Ready', status: 'True' }).success).toBe(true)
    expect(ConditionSchema.safeParse({ type: 'Ready', status: 'yes' }).success).toBe(false)
  })

  it('metadata is loose but typed', () => {
    expect(
      ObjectMetaSchema.safeParse({ name: 'x', creationTimestamp: null, other: 1 }).success
    ).toBe(true)
    expect(ObjectMetaSchema.safeParse({ labels: { a: 1 } }).success).toBe(false)
  })
})
