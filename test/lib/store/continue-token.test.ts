import { describe, expect, it } from 'vitest'
import { type ApiError, isApiError } from '../../../lib/errors.ts'
import { decodeContinue, encodeContinue } from '../../../lib/store/continue-token.ts'

function errorOf(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (e) {
    if (isApiError(e)) return e
    throw e
  }
  throw new Error('expected an ApiError')
}

describe('continue tokens', () => {
  it('round-trip through URL-safe text', () => {
    const token = {
      v: 1 as const,
      rv: 42,
      q: '["c1","","pods",null]',
      pk: 'o#c1#/pods',
      sk: 'ns/ä?+/',
    }
    const text = encodeContinue(token)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeContinue(text)).toEqual(token)
  })

  it('reject garbage and foreign content with BadRequest', () => {
    for (const raw of ['%%%', 'bm90IGpzb24', btoa('{"v":2,"rv":1}'), btoa('[]')]) {
      const err = errorOf(() => decodeContinue(raw))
      expect(err.code).toBe(400)
      expect(err.message).toContain('continue key is not valid')
    }
  })
})
