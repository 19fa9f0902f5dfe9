/**
 * The one options-422 (lib/hub/invalid-options.ts): kube's NewInvalid for a meta.k8s.io options
 * kind, one error bare and several in brackets, with no name in the details; the list options
 * answer in exactly that form too.
 */
import { describe, expect, it } from 'vitest'
import { isApiError } from '../../../lib/errors.ts'
import { dryRunCauses, invalidOptions } from '../../../lib/hub/invalid-options.ts'
import { checkListOptions } from '../../../lib/hub/list-options.ts'

describe('invalidOptions', () => {
  it('renders one cause bare and several in brackets, as kube aggregates them', () => {
    const one = invalidOptions('CreateOptions', dryRunCauses(['x']))
    expect(one.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"x"}: supported values: "All"',
      details: {
        group: 'meta.k8s.io',
        kind: 'CreateOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            field: 'dryRun',
            message: 'Unsupported value: []string{"x"}: supported values: "All"',
          },
        ],
      },
    })
    const two = invalidOptions('PatchOptions', [
      { field: 'a', message: 'one' },
      { field: 'b', message: 'two' },
    ])
    expect(two.message).toBe('PatchOptions.meta.k8s.io "" is invalid: [a: one, b: two]')
  })

  it('finds nothing wrong with dryRun=All, however often it is given', () => {
    expect(dryRunCauses([])).toEqual([])
    expect(dryRunCauses(['All', 'All'])).toEqual([])
  })

  it('is the answer of the list options too', () => {
    let error: unknown
    try {
      checkListOptions({
        watch: true,
        sendInitialEvents: true,
        resourceVersion: '1',
        resourceVersionMatch: 'Exact',
      })
    } catch (e) {
      error = e
    }
    expect(isApiError(error) && error.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]'
    )
    expect(isApiError(error) && error.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: expect.any(Array),
    })
  })
})
