import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { acquireLock, processAlive } from '../../../infra/local/lock-file.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-lock-')
})

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((r) => child.once('exit', r))
  return child.pid ?? 0
}

describe('data folder lock', () => {
  it('writes the pid and removes the file on release', async () => {
    const path = join(dir, 'lock')
    const lock = await acquireLock(path)
    expect((await readFile(path, 'utf8')).trim()).toBe(String(process.pid))
    await lock.release()
    await expect(readFile(path)).rejects.toThrow()
  })

  it('refuses while a live process holds it', async () => {
    const path = join(dir, 'lock')
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      await writeFile(path, `${other.pid}\n`)
      await expect(acquireLock(path)).rejects.toThrow(`pid ${other.pid}`)
      expect((await readFile(path, 'utf8')).trim()).toBe(String(other.pid))
    } finally {
      other.kill('SIGKILL')
    }
  })

  it('takes over a lock left by a dead process, or a garbled one', async () => {
    const path = join(dir, 'lock')
    const pid = await deadPid()
    expect(processAlive(pid)).toBe(false)
    await writeFile(path, `${pid}\n`)
    const lock = await acquireLock(path)
    expect((await readFile(path, 'utf8')).trim()).toBe(String(process.pid))
    await lock.release()
    await writeFile(path, 'not a pid')
    await acquireLock(path)
    expect((await readFile(path, 'utf8')).trim()).toBe(String(process.pid))
  })

  it('release leaves a lock that another process has taken', async () => {
    const path = join(dir, 'lock')
    const lock = await acquireLock(path)
    await writeFile(path, '12345\n')
    await lock.release()
    expect((await readFile(path, 'utf8')).trim()).toBe('12345')
  })

  it('refuses a second acquisition in the same process, and allows it after release', async () => {
    const path = join(dir, 'lock')
    const lock = await acquireLock(path)
    await expect(acquireLock(path)).rejects.toThrow('already uses the data folder')
    await lock.release()
    const again = await acquireLock(path)
    await again.release()
  })
})
