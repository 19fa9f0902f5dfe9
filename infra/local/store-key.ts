/**
 * The local store's access key: `npm start` serves dynalite only to requests signed with it
 * (dynalite-server.ts, sigv4-verify.ts), so another process on the machine cannot read or write
 * the store (a PutItem of a made-up token record would make it an admin). It is an AWS-style key
 * pair, random (an access key id `EPLOCAL` + 16 hex digits, a 64-hex-digit secret), kept in the
 * data folder as `store-key` (JSON, mode 0600) and reused across starts, so tools that read it
 * (the e2e store access) keep working; delete the file and restart to rotate it. Whatever talks
 * to the store gets it as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (`storeKeyEnv`): the
 * Worker through wrangler's env file (hub-worker.ts), the relay and the simulated edges in their
 * environment — never on a command line, which every local user can read.
 */
import { randomBytes } from 'node:crypto'
import { chmod, readFile } from 'node:fs/promises'
import { z } from 'zod'
import { writePrivateFile } from './data-dir.ts'
import type { SigningKey } from './sigv4-verify.ts'

export type StoreKey = SigningKey

const StoreKeySchema = z.object({
  accessKeyId: z.string().regex(/^[A-Z0-9]{16,128}$/),
  secretAccessKey: z.string().min(32).max(128),
})

export function generateStoreKey(): StoreKey {
  return {
    accessKeyId: `EPLOCAL${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(32).toString('hex'),
  }
}

/** The key kept at `path` (mode 0600), generated when the file is missing or not a key. */
export async function loadOrCreateStoreKey(
  path: string
): Promise<{ key: StoreKey; created: boolean }> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return ''
    throw e
  })
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  const known = StoreKeySchema.safeParse(parsed)
  if (known.success) {
    await chmod(path, 0o600)
    return { key: known.data, created: false }
  }
  const key = generateStoreKey()
  await writePrivateFile(path, `${JSON.stringify(key)}\n`)
  return { key, created: true }
}

/** The key as the AWS SDK's environment variables. */
export function storeKeyEnv(key: StoreKey): Record<string, string> {
  return { AWS_ACCESS_KEY_ID: key.accessKeyId, AWS_SECRET_ACCESS_KEY: key.secretAccessKey }
}
