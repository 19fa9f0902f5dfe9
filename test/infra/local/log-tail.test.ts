import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { stripAnsi, tailFile } from '../../../infra/local/log-tail.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

describe('tailFile', () => {
  it('returns the last lines, and nothing for a missing file', async () => {
    const dir = await tempDir('ep-tail-')
    const p = join(dir, 'log')
    await writeFile(p, `${Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')}\n`)
    expect(await tailFile(p, 3)).toBe('line 97\nline 98\nline 99')
    expect(await tailFile(join(dir, 'absent'))).toBe('')
  })

  it('reads only the end of a large file', async () => {
    const dir = await tempDir('ep-tail-')
    const p = join(dir, 'log')
    await writeFile(p, `${'x'.repeat(200_000)}\nlast`)
    const tail = await tailFile(p, 2)
    expect(tail.endsWith('\nlast')).toBe(true)
    expect(tail.length).toBeLessThanOrEqual(64 * 1024)
  })

  it('removes terminal colour codes', () => {
    expect(stripAnsi('\u001b[31m✘ \u001b[41;31m[ERROR]\u001b[0m Build failed')).toBe(
      '✘ [ERROR] Build failed'
    )
  })
})
