import { describe, expect, it } from 'vitest'
import { deleteQuery, listParams, parseQuery } from '../../../functions/api/query.ts'
import { isApiError } from '../../../lib/errors.ts'

const q = (search: string) => parseQuery(new URL(`http://hub.test/api/v1/configmaps?${search}`))

function refusal(search: string) {
  try {
    q(search)
  } catch (e) {
    if (isApiError(e)) return { code: e.code, reason: e.reason, message: e.message }
    throw e
  }
  throw new Error(`${search} was accepted`)
}

describe('query booleans, as kube decodes them', () => {
  it.each([
    ['watch=true', true],
    ['watch=True', true],
    ['watch=TRUE', true],
    ['watch=1', true],
    ['watch=', true],
    ['watch', true],
    ['watch=yes', true],
    ['watch=anything', true],
    ['watch=false', false],
    ['watch=False', false],
    ['watch=FALSE', false],
    ['watch=0', false],
    ['', false],
  ])('%s -> %s', (search, expected) => {
    expect(q(search).watch).toBe(expected)
  })

  it('applies the same rule to allowWatchBookmarks, force and sendInitialEvents', () => {
    const parsed = q('allowWatchBookmarks=True&force=True&sendInitialEvents=False')
    expect(parsed.allowWatchBookmarks).toBe(true)
    expect(parsed.force).toBe(true)
    expect(parsed.sendInitialEvents).toBe(false)
    expect(q('force=0').force).toBe(false)
    expect(q('').sendInitialEvents).toBeUndefined()
    expect(q('sendInitialEvents=').sendInitialEvents).toBe(true)
  })

  it('takes the first value of a repeated parameter', () => {
    expect(q('watch=false&watch=true').watch).toBe(false)
    expect(q('watch=true&watch=false').watch).toBe(true)
    expect(q('limit=5&limit=abc').limit).toBe(5)
    expect(q('labelSelector=a%3D1&labelSelector=b%3D2').labelSelector).toBe('a=1')
  })

  it('is not fooled by parameter names of Object.prototype', () => {
    expect(q('__proto__=x&constructor=y&watch=1').watch).toBe(true)
  })
})

describe('query integers, as strconv.ParseInt reads them', () => {
  it('accepts signed decimals, negative limits included (kube treats them as no limit)', () => {
    expect(q('limit=500').limit).toBe(500)
    expect(q('limit=%2B7').limit).toBe(7)
    expect(q('limit=-1').limit).toBe(-1)
    expect(q('timeoutSeconds=-5').timeoutSeconds).toBe(-5)
    expect(q('timeoutSeconds=007').timeoutSeconds).toBe(7)
  })

  it.each([
    ['limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['limit=%201', 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ['timeoutSeconds=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    [
      'limit=9223372036854775808',
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    ],
  ])('%s is 400: %s', (search, message) => {
    expect(refusal(search)).toEqual({ code: 400, reason: 'BadRequest', message })
  })
})

describe('listParams', () => {
  it('carries only the read options that were given', () => {
    expect(listParams(q('watch=1'))).toEqual({})
    expect(
      listParams(q('resourceVersion=5&resourceVersionMatch=Exact&sendInitialEvents=1&continue=t'))
    ).toEqual({
      resourceVersion: '5',
      resourceVersionMatch: 'Exact',
      sendInitialEvents: true,
      continue: 't',
    })
  })
})

describe('per-verb options, decoded but not judged here', () => {
  it('keeps every dryRun value, in order, and ignores other repeats', () => {
    const parsed = q('dryRun=All&dryRun=bogus&fieldManager=a&fieldManager=%00')
    expect(parsed.dryRunValues).toEqual(['All', 'bogus'])
    expect(parsed.dryRun).toBe(true)
    expect(parsed.fieldManager).toBe('a')
    expect(q('').dryRunValues).toEqual([])
    expect(q('dryRun=bogus').dryRun).toBe(false)
  })

  it('decodes the DeleteOptions of the query only when asked, with kube 400s', () => {
    const parsed = q('gracePeriodSeconds=x&orphanDependents=1')
    expect(
      deleteQuery(q('gracePeriodSeconds=30&gracePeriodSeconds=x&orphanDependents=False'))
    ).toEqual({ gracePeriodSeconds: 30, orphanDependents: false })
    expect(deleteQuery(q('dryRun=All&propagationPolicy=Orphan'))).toEqual({
      dryRun: ['All'],
      propagationPolicy: 'Orphan',
    })
    try {
      deleteQuery(parsed)
      expect.unreachable()
    } catch (e) {
      expect(isApiError(e) && [e.code, e.message]).toEqual([
        400,
        'strconv.ParseInt: parsing "x": invalid syntax',
      ])
    }
  })
})
