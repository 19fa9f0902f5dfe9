/**
 * The promtool probe of the metrics lints: present, it says so; absent, the lint is left out on a
 * developer's machine and is an error under CI.
 */
import { describe, expect, it } from 'vitest'
import { hasPromtool } from './promtool.ts'

describe('hasPromtool', () => {
  it('says whether promtool is here, outside CI', () => {
    expect(hasPromtool({}, true)).toBe(true)
    expect(hasPromtool({}, false)).toBe(false)
  })

  it('refuses to leave the lint out under CI', () => {
    expect(hasPromtool({ CI: 'true' }, true)).toBe(true)
    expect(() => hasPromtool({ CI: 'true' }, false)).toThrow(/\.ci\/run installs it/)
  })
})
