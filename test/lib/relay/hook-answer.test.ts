/** The hook's answer becomes per-key results, deferred keys marked; other shapes count as none. */
import { describe, expect, it } from 'vitest'
import { hookKeyResults } from '../../../lib/relay/hook-answer.ts'

describe('hookKeyResults', () => {
  it('marks the deferred keys after the results', () => {
    const body = {
      step: 'translate',
      results: [{ key: 'a', ok: true, outcome: 'unchanged', extra: 1 }],
      deferred: ['b', 'c'],
    }
    expect(hookKeyResults(body)).toEqual([
      { key: 'a', ok: true, outcome: 'unchanged', extra: 1 },
      { key: 'b', ok: true, deferred: true },
      { key: 'c', ok: true, deferred: true },
    ])
  })

  it('reads an answer without deferred keys, and refuses other shapes', () => {
    expect(hookKeyResults({ results: [{ key: 'a', ok: false }] })).toEqual([
      { key: 'a', ok: false },
    ])
    expect(hookKeyResults({ results: 'no' })).toBeUndefined()
    expect(hookKeyResults({ results: [], deferred: [1] })).toBeUndefined()
    expect(hookKeyResults(undefined)).toBeUndefined()
  })
})
