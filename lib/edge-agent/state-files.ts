/**
 * The agent's state folder: small JSON files written atomically (a temporary file in the same
 * folder, flushed to disk, then renamed over the old one), so a crash or power loss leaves either
 * the old or the new content, never half of it. Reading tells a missing file from a corrupt one:
 * the caller decides what a corrupt file means (the agent never treats it as permission to
 * delete anything).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { z } from 'zod'

export type ReadResult<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  | { kind: 'corrupt'; error: string }

export async function readJsonFile<T>(path: string, schema: z.ZodType<T>): Promise<ReadResult<T>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    throw e
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    if (parsed.success) return { kind: 'ok', value: parsed.data }
    return { kind: 'corrupt', error: parsed.error.message.slice(0, 500) }
  } catch (e) {
    return { kind: 'corrupt', error: e instanceof Error ? e.message : String(e) }
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
  const fh = await open(tmp, 'w', 0o600)
  try {
    await fh.writeFile(JSON.stringify(value))
    await fh.sync()
  } finally {
    await fh.close()
  }
  try {
    await rename(tmp, path)
  } catch (e) {
    await rm(tmp, { force: true })
    throw e
  }
}
