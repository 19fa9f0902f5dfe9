/**
 * The local store's key (infra/local/store-key.ts): generated on first use into a file of mode
 * 0600, reused afterwards (also tightening a file left open), made anew when the file does not
 * hold a key; keys are random, and shaped so that a SigV4 credential scope can carry them.
 */
import { chmod, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  generateStoreKey,
  loadOrCreateStoreKey,
  storeKeyEnv,
} from '../../../infra/local/store-key.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

describe('the store key', () => {
  it('is created once with mode 0600 and reused', async () => {
    const file = join(await tempDir('ep-key-'), 'store-key')
    const first = await loadOrCreateStoreKey(file)
    expect(first.created).toBe(true)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first.key)
    await chmod(file, 0o644)
    const again = await loadOrCreateStoreKey(file)
    expect(again).toEqual({ key: first.key, created: false })
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })

  it('is made anew when the file holds no key', async () => {
    const file = join(await tempDir('ep-key-'), 'store-key')
    for (const junk of ['', 'not json', '{"accessKeyId":"a/b","secretAccessKey":"x"}']) {
      await writeFile(file, junk)
      const { key, created } = await loadOrCreateStoreKey(file)
      expect(created).toBe(true)
      expect(key.accessKeyId).toMatch(/^EPLOCAL[0-9A-F]{16}$/)
    }
  })

  it('is random, and handed to processes as the AWS variables', () => {
    const a = generateStoreKey()
    const b = generateStoreKey()
    expect(a.accessKeyId).not.toBe(b.accessKeyId)
    expect(a.secretAccessKey).toMatch(/^[0-9a-f]{64}$/)
    expect(a.secretAccessKey).not.toBe(b.secretAccessKey)
    expect(storeKeyEnv(a)).toEqual({
      AWS_ACCESS_KEY_ID: a.accessKeyId,
      AWS_SECRET_ACCESS_KEY: a.secretAccessKey,
    })
  })
})
