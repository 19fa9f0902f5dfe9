/**
 * The temporary-folder helpers remove what they make: a test's folder once the test finishes, a
 * file's folder after the file's last test, and makeTempDir's folder when the caller removes it.
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fileTempDir, makeTempDir, removeTempDir, tempDir } from './temp-dir.ts'

describe('tempDir', () => {
  let made = ''
  it('makes a fresh folder under the OS temp folder', async () => {
    made = await tempDir('td-test-')
    const other = await tempDir('td-test-')
    expect(dirname(made)).toBe(tmpdir())
    expect(basename(made)).toMatch(/^td-test-/)
    expect(other).not.toBe(made)
    await writeFile(join(made, 'f'), 'x')
    expect(existsSync(made)).toBe(true)
  })
  it('removed it, contents and all, when that test finished', () => {
    expect(made).not.toBe('')
    expect(existsSync(made)).toBe(false)
  })
})

describe('fileTempDir', () => {
  let seen = ''
  // afterAll hooks run in reverse order, so this one runs after fileTempDir's own.
  afterAll(() => {
    expect(seen).not.toBe('')
    expect(existsSync(seen)).toBe(false)
  })
  const shared = fileTempDir('td-file-')
  it('keeps one folder for all the tests of its block', async () => {
    seen = shared()
    await writeFile(join(seen, 'f'), 'x')
  })
  it('still there for the next test', () => {
    expect(shared()).toBe(seen)
    expect(existsSync(join(seen, 'f'))).toBe(true)
  })
})

describe('makeTempDir / removeTempDir', () => {
  it('leave removal to the caller, and removing twice is fine', async () => {
    const dir = await makeTempDir('td-raw-')
    await writeFile(join(dir, 'f'), 'x')
    await removeTempDir(dir)
    expect(existsSync(dir)).toBe(false)
    await removeTempDir(dir)
  })
})
