/** Which store errors are an unavailable store (503) and which are bugs or refusals. */
import { describe, expect, it } from 'vitest'
import { badRequest } from '../../../lib/errors.ts'
import { isStoreUnavailable, storeUnavailable } from '../../../lib/store/unavailable.ts'

const withMeta = (name: string, status: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } })

describe('isStoreUnavailable', () => {
  it('is true for dropped connections, timeouts, throttling and 5xx', () => {
    expect(isStoreUnavailable(new Error('socket hang up'))).toBe(true)
    expect(isStoreUnavailable(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true)
    expect(isStoreUnavailable(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toBe(true)
    expect(isStoreUnavailable(withMeta('ThrottlingException', 400))).toBe(true)
    expect(isStoreUnavailable(withMeta('InternalServerError', 500))).toBe(true)
  })

  it('is false for refusals, API errors and programming errors', () => {
    expect(isStoreUnavailable(withMeta('ValidationException', 400))).toBe(false)
    expect(isStoreUnavailable(badRequest('no'))).toBe(false)
    expect(isStoreUnavailable(new TypeError('undefined is not a function'))).toBe(false)
    expect(isStoreUnavailable('socket hang up')).toBe(false)
  })

  it('renders as a 503 Status with a retry hint', () => {
    const s = storeUnavailable().toStatus()
    expect(s).toMatchObject({ code: 503, reason: 'ServiceUnavailable' })
    expect(s.details?.retryAfterSeconds).toBe(1)
  })
})
