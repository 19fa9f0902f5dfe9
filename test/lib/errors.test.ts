import { describe, expect, it } from 'vitest'
import { conflict, isNotFound, notFound } from '../../lib/errors.ts'

describe('isNotFound', () => {
  it('holds for a 404 ApiError only', () => {
    expect(isNotFound(notFound('configmaps', { name: 'a' }))).toBe(true)
    expect(isNotFound(conflict('configmaps', { name: 'a' }, 'changed'))).toBe(false)
    expect(isNotFound(Object.assign(new Error('not found'), { code: 404 }))).toBe(false)
    expect(isNotFound(undefined)).toBe(false)
  })
})
