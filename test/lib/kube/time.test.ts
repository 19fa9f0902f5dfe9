import { describe, expect, it } from 'vitest'
import { timestamp } from '../../../lib/kube/time.ts'

describe('timestamp', () => {
  it('writes UTC at second precision, dropping (not rounding) the milliseconds', () => {
    expect(timestamp(new Date('2030-05-06T07:08:09.987Z'))).toBe('2030-05-06T07:08:09Z')
    expect(timestamp(new Date('2030-05-06T07:08:09.000+02:00'))).toBe('2030-05-06T05:08:09Z')
    expect(timestamp(new Date(0))).toBe('1970-01-01T00:00:00Z')
  })
})
