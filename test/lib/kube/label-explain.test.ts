/**
 * Why a label selector does not match, in words: the first failing requirement as kube writes it
 * and what the labels hold for its key, for every operator; an invalid selector; bounded text.
 */
import { describe, expect, it } from 'vitest'
import { labelMismatch, requirementText } from '../../../lib/kube/label-explain.ts'

const L = 'the Location'

describe('labelMismatch', () => {
  it('names the first failing term and the value the labels hold', () => {
    const sel = { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }
    expect(labelMismatch({ env: 'prod' }, sel, L)).toBe('env in (dev): the Location has env=prod')
    expect(labelMismatch({}, sel, L)).toBe('env in (dev): the Location has no env label')
    expect(labelMismatch({ env: 'dev' }, sel, L)).toBeUndefined()
  })

  it('tests matchLabels first, then matchExpressions in order', () => {
    const sel = {
      matchLabels: { region: 'east' },
      matchExpressions: [{ key: 'tier', operator: 'Exists' }],
    }
    expect(labelMismatch({ region: 'west' }, sel, L)).toBe(
      'region=east: the Location has region=west'
    )
    expect(labelMismatch({ region: 'east' }, sel, L)).toBe('tier: the Location has no tier label')
  })

  it('writes every operator as kube does', () => {
    const r = (operator: string, values: string[] = []) => ({ key: 'k', operator, values })
    const not = { matchExpressions: [r('NotIn', ['a', 'b'])] }
    expect(labelMismatch({ k: 'a' }, not)).toBe('k notin (a,b): the object has k=a')
    const absent = { matchExpressions: [r('DoesNotExist')] }
    expect(labelMismatch({ k: 'v' }, absent)).toBe('!k: the object has k=v')
    expect(requirementText({ key: 'k', operator: 'NotEquals', values: ['v'] })).toBe('k!=v')
    expect(requirementText({ key: 'k', operator: 'GreaterThan', values: ['1'] })).toBe('k>1')
    expect(requirementText({ key: 'k', operator: 'LessThan', values: ['1'] })).toBe('k<1')
  })

  it('says an invalid selector matches nothing', () => {
    const bad = { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }
    expect(labelMismatch({ k: 'v' }, bad)).toBe('not a valid label selector: it matches nothing')
  })

  it('keeps the message short whatever the selector holds', () => {
    const values = Array.from({ length: 50 }, (_, i) => `v${i}`)
    const sel = { matchExpressions: [{ key: 'k', operator: 'In', values }] }
    expect(labelMismatch({ k: 'x'.repeat(63) }, sel)).toBe(
      `k in (v0,v1,v2,…): the object has k=${'x'.repeat(63)}`
    )
    const long = `${'p'.repeat(200)}/name`
    expect(labelMismatch({}, { matchLabels: { [long]: 'v' } })?.length).toBeLessThan(200)
  })
})
