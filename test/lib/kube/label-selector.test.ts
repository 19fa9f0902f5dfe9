/**
 * Tests for label selectors: the query-string grammar (equality, set-based, existence, numeric,
 * whitespace, empty values), matching, 400 errors for malformed selectors, metav1.LabelSelector
 * matching (empty vs absent selectors) and validation causes.
 */
import { describe, expect, it } from 'vitest'
import {
  type LabelSelector,
  labelKeyProblem,
  labelSelectorRequirements,
  labelValueProblem,
  matchesLabelSelector,
  matchesOptionalLabelSelector,
  parseLabelRequirements,
  parseLabelSelector,
  validateLabelSelector,
} from '../../../lib/kube/label-selector.ts'
import { failure } from '../../helpers/api-error.ts'

describe('parseLabelRequirements', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['a=b', [{ key: 'a', operator: 'Equals', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: 'Equals', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: 'NotEquals', values: ['b'] }]],
    ['a=', [{ key: 'a', operator: 'Equals', values: [''] }]],
    ['a', [{ key: 'a', operator: 'Exists', values: [] }]],
    ['!a', [{ key: 'a', operator: 'DoesNotExist', values: [] }]],
    [' ! a ', [{ key: 'a', operator: 'DoesNotExist', values: [] }]],
    ['env in (prod, staging)', [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }]],
    ['env notin (dev)', [{ key: 'env', operator: 'NotIn', values: ['dev'] }]],
    ['env in(a,)', [{ key: 'env', operator: 'In', values: ['a', ''] }]],
    ['n>5', [{ key: 'n', operator: 'GreaterThan', values: ['5'] }]],
    ['n < -1', [{ key: 'n', operator: 'LessThan', values: ['-1'] }]],
    ['example.com/app=web', [{ key: 'example.com/app', operator: 'Equals', values: ['web'] }]],
    [
      'app = web , tier!=db,!canary, env in ( a , b )',
      [
        { key: 'app', operator: 'Equals', values: ['web'] },
        { key: 'tier', operator: 'NotEquals', values: ['db'] },
        { key: 'canary', operator: 'DoesNotExist', values: [] },
        { key: 'env', operator: 'In', values: ['a', 'b'] },
      ],
    ],
  ])('%j', (selector, want) => {
    expect(parseLabelRequirements(selector)).toEqual(want)
  })

  it.each([
    ['a=b,', "found '', expected: !, identifier"],
    [',a', "found ',', expected: !, identifier"],
    ['a b', "found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ','"],
    ['a in b', "found 'b', expected: '('"],
    ['a in (b', "found '', expected: ')'"],
    ['a in (b c)', "found 'c', expected: ',' or ')'"],
    ['a in ()', "values set can't be empty"],
    ['!', "expected: identifier after '!'"],
    ['a>b', 'the value must be an integer'],
    ['-a=b', 'invalid label key "-a"'],
    ['a/b/c=d', 'invalid label key "a/b/c"'],
    ['Foo.com/a=b', 'prefix part a lowercase RFC 1123 subdomain'],
    ['a=-b', 'invalid label value "-b"'],
    [`a=${'x'.repeat(64)}`, 'must be no more than 63 characters'],
  ])('400 for %j', (selector, message) => {
    const err = failure(() => parseLabelRequirements(selector))
    expect(err.code).toBe(400)
    expect(err.message).toContain(`unable to parse label selector "${selector}"`)
    expect(err.message).toContain(message)
  })
})

describe('parseLabelSelector matching', () => {
  const labels = { app: 'web', tier: 'fe', n: '10', empty: '' }
  it.each([
    ['', true],
    ['app=web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['tier in (fe,be)', true],
    ['tier in (be)', false],
    ['missing in (x)', false],
    ['tier notin (be)', true],
    ['missing notin (x)', true],
    ['tier notin (fe)', false],
    ['n>9', true],
    ['n>10', false],
    ['n<11', true],
    ['app>1', false],
    ['missing<1', false],
    ['empty=', true],
    ['empty', true],
    ['app=web,tier=fe', true],
    ['app=web,tier=be', false],
    ['constructor', false],
  ])('%j -> %s', (selector, want) => {
    expect(parseLabelSelector(selector)(labels)).toBe(want)
  })

  it('treats missing labels as none', () => {
    expect(parseLabelSelector('!a')(undefined)).toBe(true)
    expect(parseLabelSelector('a')(undefined)).toBe(false)
  })
})

describe('metav1.LabelSelector', () => {
  const labels = { app: 'web', env: 'prod' }
  it.each<[string, LabelSelector, boolean]>([
    ['empty selector matches everything', {}, true],
    ['matchLabels', { matchLabels: { app: 'web' } }, true],
    ['matchLabels mismatch', { matchLabels: { app: 'db' } }, false],
    ['In', { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }] }, true],
    ['NotIn', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, false],
    ['Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, false],
    [
      'all must hold',
      {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }],
      },
      false,
    ],
    [
      'unknown operator matches nothing',
      { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] },
      false,
    ],
    [
      'In without values matches nothing',
      { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] },
      false,
    ],
    [
      'Exists with values matches nothing',
      { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] },
      false,
    ],
  ])('%s', (_name, selector, want) => {
    expect(matchesLabelSelector(labels, selector)).toBe(want)
  })

  it('lets the caller choose what an absent selector selects', () => {
    expect(matchesOptionalLabelSelector(labels, undefined, 'nothing')).toBe(false)
    expect(matchesOptionalLabelSelector(labels, null, 'everything')).toBe(true)
    expect(matchesOptionalLabelSelector(labels, {}, 'nothing')).toBe(true)
    expect(matchesOptionalLabelSelector(labels, { matchLabels: { app: 'x' } }, 'everything')).toBe(
      false
    )
  })

  it('converts to requirements, undefined when invalid', () => {
    expect(
      labelSelectorRequirements({
        matchLabels: { a: '1' },
        matchExpressions: [{ key: 'b', operator: 'Exists' }],
      })
    ).toEqual([
      { key: 'a', operator: 'Equals', values: ['1'] },
      { key: 'b', operator: 'Exists', values: [] },
    ])
    expect(
      labelSelectorRequirements({ matchExpressions: [{ key: 'b', operator: 'Gt', values: ['1'] }] })
    ).toBeUndefined()
  })

  it('reports validation causes like kube', () => {
    const causes = validateLabelSelector(
      {
        matchLabels: { 'bad key!': 'ok', good: '-bad' },
        matchExpressions: [
          { key: 'a', operator: 'Equals', values: ['x'] },
          { key: 'b', operator: 'In' },
          { key: 'c', operator: 'Exists', values: ['x'] },
          { key: 'd', operator: 'NotIn', values: ['ok', 'not ok'] },
          { key: 'e', operator: 'DoesNotExist' },
        ],
      },
      'spec.selector'
    )
    expect(causes.map((c) => [c.reason, c.field])).toEqual([
      ['FieldValueInvalid', 'spec.selector.matchLabels'],
      ['FieldValueInvalid', 'spec.selector.matchLabels'],
      ['FieldValueNotSupported', 'spec.selector.matchExpressions[0].operator'],
      ['FieldValueRequired', 'spec.selector.matchExpressions[1].values'],
      ['FieldValueForbidden', 'spec.selector.matchExpressions[2].values'],
      ['FieldValueInvalid', 'spec.selector.matchExpressions[3].values[1]'],
    ])
    expect(causes[2]?.message).toBe(
      'Unsupported value: "Equals": supported values: "In", "NotIn", "Exists", "DoesNotExist"'
    )
    expect(causes[0]?.message).toContain('Invalid value: "bad key!": name part must consist of')
    expect(validateLabelSelector({ matchLabels: { a: 'b' } })).toEqual([])
  })
})

describe('label key and value syntax', () => {
  it.each([
    ['app', undefined],
    ['app.kubernetes.io/name', undefined],
    ['A_b.c-1', undefined],
    ['/a', 'prefix part must be non-empty'],
    ['a/', 'name part must be non-empty'],
    [`${'a'.repeat(64)}`, 'name part must be no more than 63 characters'],
    [`${'a'.repeat(254)}/b`, 'prefix part must be no more than 253 characters'],
    ['_a', 'name part must consist of'],
  ])('key %j', (key, problem) => {
    const got = labelKeyProblem(key)
    if (problem === undefined) expect(got).toBeUndefined()
    else expect(got).toContain(problem)
  })

  it.each([
    ['', undefined],
    ['v1.2_3-x', undefined],
    ['a b', 'a valid label must be an empty string or consist of'],
    ['x'.repeat(64), 'must be no more than 63 characters'],
  ])('value %j', (value, problem) => {
    const got = labelValueProblem(value)
    if (problem === undefined) expect(got).toBeUndefined()
    else expect(got).toContain(problem)
  })
})
