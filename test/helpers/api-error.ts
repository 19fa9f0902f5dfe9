/**
 * `failure(fn)`: runs `fn`, which must throw an ApiError, and returns that error so a test can
 * assert its code, reason and message. Any other outcome fails the test.
 */
import { ApiError } from '../../lib/errors.ts'

export function failure(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (e) {
    if (e instanceof ApiError) return e
    throw e
  }
  throw new Error('expected an ApiError')
}
