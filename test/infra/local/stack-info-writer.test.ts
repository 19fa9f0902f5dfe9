/**
 * stack.json kept current: nothing written before the stack is ready, rewrites in order with the
 * latest last, a failed write logged and the chain going on, and after close the file gone and
 * later rewrites writing nothing.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readStackInfo, type StackInfo } from '../../../infra/local/stack-info.ts'
import { createStackInfoWriter } from '../../../infra/local/stack-info-writer.ts'
import { createLogger } from '../../../lib/log.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { sampleStackInfo } from './stack-info-sample.ts'

const info = (pid: number): StackInfo => ({ ...sampleStackInfo, pid })

describe('createStackInfoWriter', () => {
  it('writes what is current at each rewrite, in order, and removes the file on close', async () => {
    const file = join(await tempDir('ep-info-writer-'), 'stack.json')
    let now: StackInfo | undefined
    const w = createStackInfoWriter(file, () => now, createLogger({ sink: () => {} }))
    w.rewrite()
    await w.flushed()
    expect(await readStackInfo(file)).toBeUndefined()
    now = info(1)
    w.rewrite()
    now = info(2)
    w.rewrite()
    await w.flushed()
    expect((await readStackInfo(file))?.pid).toBe(2)
    await w.close()
    expect(await readStackInfo(file)).toBeUndefined()
    now = info(3)
    w.rewrite()
    await w.flushed()
    expect(await readStackInfo(file)).toBeUndefined()
  })

  it('logs a failed write and keeps writing the ones after it', async () => {
    const dir = await tempDir('ep-info-writer-')
    const folder = join(dir, 'run')
    const file = join(folder, 'stack.json')
    const lines: string[] = []
    const w = createStackInfoWriter(
      file,
      () => info(7),
      createLogger({ sink: (l) => lines.push(l) })
    )
    w.rewrite() // no folder yet: the write fails with ENOENT
    await expect(w.flushed()).resolves.toBeUndefined()
    expect(lines.some((l) => JSON.parse(l).msg === 'could not rewrite stack.json')).toBe(true)
    await mkdir(folder)
    w.rewrite()
    await w.flushed()
    expect((await readStackInfo(file))?.pid).toBe(7)
  })
})
