import { describe, expect, it } from 'vitest'
import { checkTokenSpec, isValidScope } from '../../../lib/auth/token-spec.ts'

describe('isValidScope', () => {
  it('takes space paths and subtrees, nothing else', () => {
    for (const ok of ['root', 'root:a', 'root:a-b:c1', 'root:*', 'root:a:*'])
      expect(isValidScope(ok), ok).toBe(true)
    for (const bad of [
      '',
      '*',
      'a',
      'root:',
      'root:*:a',
      'root:A',
      'root:a*',
      'root:-a',
      'other:a',
      'root::*',
    ])
      expect(isValidScope(bad), bad).toBe(false)
  })
})

describe('checkTokenSpec', () => {
  it('fills the defaults and drops duplicates', () => {
    expect(checkTokenSpec({ spaces: ['root:a', 'root:a'], groups: ['g', 'g'] }, 'alice')).toEqual({
      spec: {
        user: 'alice',
        type: 'user',
        spaces: ['root:a'],
        groups: ['g'],
        expirationSeconds: 2592000,
      },
      causes: [],
    })
    expect(checkTokenSpec({ type: 'admin', expirationSeconds: 600 }, 'ops').spec).toEqual({
      user: 'ops',
      type: 'admin',
      spaces: [],
      groups: [],
      expirationSeconds: 600,
    })
  })

  it('names every offending field', () => {
    const { causes } = checkTokenSpec(
      {
        user: '',
        type: 'root',
        spaces: ['x', 'root'],
        groups: ['system:x', 3],
        expirationSeconds: 31536001,
      },
      'n'
    )
    expect(causes.map((c) => c.field).sort()).toEqual([
      'spec.expirationSeconds',
      'spec.groups[0]',
      'spec.groups[1]',
      'spec.spaces[0]',
      'spec.type',
      'spec.user',
    ])
    expect(checkTokenSpec([], 'n').causes[0]?.field).toBe('spec')
    expect(checkTokenSpec(undefined, 'n').causes[0]?.field).toBe('spec.spaces')
  })
})
