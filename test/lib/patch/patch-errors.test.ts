/**
 * Tests for the patch-specific errors: 422 Invalid rendered as a kube Status.
 */
import { describe, expect, it } from 'vitest'
import { unprocessable } from '../../../lib/patch/patch-errors.ts'

describe('unprocessable', () => {
  it('is 422 Invalid with the message as given', () => {
    expect(unprocessable('the test did not match').toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the test did not match',
      reason: 'Invalid',
      code: 422,
    })
  })
})
