import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readStackInfo, removeStackInfo, writeStackInfo } from '../../../infra/local/stack-info.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { sampleStackInfo } from './stack-info-sample.ts'

const info = sampleStackInfo

describe('stack.json', () => {
  it('round-trips, owner-only, and is removed', async () => {
    const dir = await tempDir('ep-info-')
    const p = join(dir, 'stack.json')
    await writeStackInfo(p, info)
    expect(await readStackInfo(p)).toEqual(info)
    expect((await stat(p)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(p, 'utf8')).dynalite.endpoint).toBe('http://127.0.0.1:40000')
    await removeStackInfo(p)
    expect(await readStackInfo(p)).toBeUndefined()
    await removeStackInfo(p)
  })

  it('reads garbage or a wrong shape as absent', async () => {
    const dir = await tempDir('ep-info-')
    const p = join(dir, 'stack.json')
    await writeFile(p, '{not json')
    expect(await readStackInfo(p)).toBeUndefined()
    await writeFile(p, JSON.stringify({ ...info, port: 'x' }))
    expect(await readStackInfo(p)).toBeUndefined()
  })
})
