/**
 * parseDeleteOptions: the dry run comes from the query (`?dryRun=All`) or from the DeleteOptions
 * body (`dryRun: ["All"]`, what `kubectl delete --dry-run=server` sends); other dry-run values and
 * unknown propagation policies are 400s.
 */
import { describe, expect, it } from 'vitest'
import { parseDeleteOptions } from '../../../lib/hub/delete.ts'
import { failure as apiError } from '../../helpers/api-error.ts'

const query = { dryRun: false, baseUrl: 'https://hub.test' }

describe('parseDeleteOptions', () => {
  it('is no dry run by default, with or without a body', () => {
    expect(parseDeleteOptions(undefined, query).dryRun).toBe(false)
    expect(parseDeleteOptions({ kind: 'DeleteOptions', apiVersion: 'v1' }, query).dryRun).toBe(
      false
    )
    expect(parseDeleteOptions({ dryRun: [] }, query).dryRun).toBe(false)
    expect(parseDeleteOptions({ dryRun: null }, query).dryRun).toBe(false)
  })

  it('takes the dry run from the query', () => {
    expect(parseDeleteOptions(undefined, { ...query, dryRun: true }).dryRun).toBe(true)
  })

  it('takes the dry run from the body, as kubectl delete --dry-run=server sends it', () => {
    const body = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      dryRun: ['All'],
    }
    expect(parseDeleteOptions(body, query)).toEqual({
      dryRun: true,
      propagationPolicy: 'Background',
      baseUrl: query.baseUrl,
    })
    expect(parseDeleteOptions({ orphanDependents: true, dryRun: ['All'] }, query)).toEqual({
      dryRun: true,
      propagationPolicy: 'Orphan',
      baseUrl: query.baseUrl,
    })
  })

  it('refuses other dry-run values and shapes', () => {
    const bad = apiError(() => parseDeleteOptions({ dryRun: ['Some'] }, query))
    expect(bad.code).toBe(400)
    expect(bad.message).toContain('"Some"')
    expect(apiError(() => parseDeleteOptions({ dryRun: 'All' }, query)).code).toBe(400)
  })

  it('refuses an unknown propagation policy', () => {
    const e = apiError(() => parseDeleteOptions({ propagationPolicy: 'Later' }, query))
    expect(e.code).toBe(400)
    expect(e.message).toContain('Later')
  })
})
