/**
 * parseDeleteOptions, as kube's delete handlers read DeleteOptions: the body's when there is one
 * (the query is then ignored), else the query's; then apimachinery's ValidateDeleteOptions: an
 * unknown propagationPolicy, both orphanDependents and propagationPolicy, or any dryRun value but
 * "All" is 422 Invalid on the meta.k8s.io DeleteOptions kind; a body field of the wrong type 400.
 */
import { describe, expect, it } from 'vitest'
import { parseDeleteOptions } from '../../../lib/hub/delete.ts'
import { failure as apiError } from '../../helpers/api-error.ts'

const URL = 'https://hub.test'
const parse = (body: unknown, query = {}) => parseDeleteOptions(body, () => query, URL)

describe('parseDeleteOptions', () => {
  it('is no dry run by default, with or without a body', () => {
    expect(parse(undefined)).toEqual({ dryRun: false, baseUrl: URL })
    expect(parse({ kind: 'DeleteOptions', apiVersion: 'v1' }).dryRun).toBe(false)
    expect(parse({ dryRun: [] }).dryRun).toBe(false)
    expect(parse({ dryRun: null }).dryRun).toBe(false)
    expect(parse(null).dryRun).toBe(false)
  })

  it('takes the options from the query when there is no body', () => {
    expect(parse(undefined, { dryRun: ['All'], propagationPolicy: 'Foreground' })).toEqual({
      dryRun: true,
      propagationPolicy: 'Foreground',
      baseUrl: URL,
    })
    expect(parse(undefined, { orphanDependents: true }).propagationPolicy).toBe('Orphan')
  })

  it('ignores the query when there is a body, as kube does', () => {
    const o = parse({}, { dryRun: ['bogus'], propagationPolicy: 'x', gracePeriodSeconds: 5 })
    expect(o).toEqual({ dryRun: false, baseUrl: URL })
  })

  it('takes the dry run from the body, as kubectl delete --dry-run=server sends it', () => {
    const body = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      dryRun: ['All'],
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u1', resourceVersion: '7' },
    }
    expect(parse(body)).toEqual({
      dryRun: true,
      propagationPolicy: 'Background',
      preconditions: { uid: 'u1', resourceVersion: '7' },
      baseUrl: URL,
    })
    expect(parse({ orphanDependents: true, dryRun: ['All'] })).toEqual({
      dryRun: true,
      propagationPolicy: 'Orphan',
      baseUrl: URL,
    })
  })

  it('refuses any dryRun value but All with 422, every value counting', () => {
    for (const [body, query] of [
      [{ dryRun: ['All', 'Some'] }, {}],
      [undefined, { dryRun: ['All', 'Some'] }],
    ] as const) {
      const e = apiError(() => parse(body, query))
      expect(e.toStatus()).toMatchObject({
        code: 422,
        reason: 'Invalid',
        message:
          'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Some"}: supported values: "All"',
        details: { group: 'meta.k8s.io', kind: 'DeleteOptions' },
      })
      expect(e.details?.causes).toEqual([
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: []string{"All", "Some"}: supported values: "All"',
          field: 'dryRun',
        },
      ])
    }
  })

  it('refuses an unknown propagation policy with 422, quoting it as Go does', () => {
    const e = apiError(() => parse(undefined, { propagationPolicy: 'Orphan\u0000' }))
    expect([e.code, e.message]).toEqual([
      422,
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Orphan\\x00": supported values: "Foreground", "Background", "Orphan", "nil"',
    ])
  })

  it('refuses orphanDependents with a propagationPolicy, listing every error', () => {
    const e = apiError(() => parse({ orphanDependents: false, propagationPolicy: 'Later' }))
    expect(e.code).toBe(422)
    expect(e.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Invalid value: "Later": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"]'
    )
  })

  it('refuses body fields of the wrong type with 400', () => {
    for (const body of [
      { dryRun: 'All' },
      { gracePeriodSeconds: 1.5 },
      { gracePeriodSeconds: '5' },
      { orphanDependents: 'true' },
      { propagationPolicy: 1 },
      { preconditions: { uid: 1 } },
      [],
      'x',
    ])
      expect(apiError(() => parse(body)).code, JSON.stringify(body)).toBe(400)
  })
})
