/**
 * What `npm start` says of its store's folder before dynalite opens it (store-folder.ts): a
 * read-only folder stops the start with an error naming the folder and EROFS (dynalite alone exits
 * with `Database is closed`); a nearly full filesystem is a warning with the bytes free; a
 * writable one with room passes silently. The mounts need root; those cases are skipped without.
 */
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkStoreFolder } from '../../../infra/local/store-folder.ts'
import { createLogger } from '../../../lib/log.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

function tryMount(at: string, options: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const logged = () => {
  const lines: string[] = []
  return { lines, log: createLogger({ level: 'info', sink: (l: string) => lines.push(l) }) }
}

describe('checkStoreFolder', () => {
  it('passes a writable folder with room, saying nothing', async () => {
    const { lines, log } = logged()
    await checkStoreFolder(await tempDir('ep-sf-'), log)
    expect(lines).toEqual([])
  })

  it('refuses a read-only folder, naming it and the cause', async (ctx) => {
    const dir = await tempDir('ep-sf-')
    if (!tryMount(dir, 'ro,size=1m')) ctx.skip()
    try {
      const { log } = logged()
      await expect(checkStoreFolder(dir, log)).rejects.toThrow(
        new RegExp(`the local store's folder ${dir} is not writable \\(EROFS`)
      )
    } finally {
      execFileSync('umount', [dir])
    }
  })

  it('warns when the filesystem is nearly full', async (ctx) => {
    const dir = await tempDir('ep-sf-')
    if (!tryMount(dir, 'size=8m')) ctx.skip()
    try {
      await writeFile(join(dir, 'filler'), Buffer.alloc(7 * 1024 * 1024))
      const { lines, log } = logged()
      await checkStoreFolder(dir, log)
      expect(lines.some((l) => l.includes('nearly out of space') && l.includes(dir))).toBe(true)
    } finally {
      execFileSync('umount', [dir])
    }
  })
})
