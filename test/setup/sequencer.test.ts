/**
 * The sequencer's list of slow unit files stays true to the tree: each entry is an existing unit
 * test file (not an end-to-end one, which the sequencer orders apart), listed once.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../infra/repo-root.ts'
import { SLOW_FIRST } from './sequencer.ts'

describe('SLOW_FIRST', () => {
  it('names existing unit test files, each once', () => {
    const missing = SLOW_FIRST.filter((p) => !existsSync(join(REPO_ROOT, p)))
    expect(missing).toEqual([])
    for (const p of SLOW_FIRST) expect(p).toMatch(/^test\/(?!e2e\/).+\.test\.ts$/)
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length)
  })
})
