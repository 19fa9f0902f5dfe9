/**
 * The data folder of a local stack and what lives in it:
 *   admin-token   the admin bearer token, generated on first start, mode 0600, reused afterwards
 *   dynalite/     the dynalite (LevelDB) files: every object, token and space
 *   wrangler/     wrangler dev's own persisted state (--persist-to)
 *   wrangler.log  wrangler's and the Worker's output
 *   kubeconfig    contexts for kubectl (mode 0600, it holds the token)
 *   stack.json    URLs, ports and pid of the running stack, for tools and tests
 * Nothing here is deleted on stop except stack.json, so a second start sees the same state.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { generateToken } from '../../lib/auth/tokens.ts'

export type DataPaths = {
  root: string
  adminToken: string
  dynalite: string
  wrangler: string
  wranglerLog: string
  kubeconfig: string
  stackInfo: string
}

export function dataPaths(root: string): DataPaths {
  return {
    root,
    adminToken: join(root, 'admin-token'),
    dynalite: join(root, 'dynalite'),
    wrangler: join(root, 'wrangler'),
    wranglerLog: join(root, 'wrangler.log'),
    kubeconfig: join(root, 'kubeconfig'),
    stackInfo: join(root, 'stack.json'),
  }
}

/** Creates the data folder and its sub-folders (idempotent). */
export async function prepareDataDir(root: string): Promise<DataPaths> {
  const paths = dataPaths(root)
  await mkdir(paths.dynalite, { recursive: true })
  await mkdir(paths.wrangler, { recursive: true })
  return paths
}

/** Writes a file readable only by its owner, also tightening the mode of an existing file. */
export async function writePrivateFile(path: string, content: string): Promise<void> {
  await writeFile(path, content, { mode: 0o600 })
  await chmod(path, 0o600)
}

/**
 * The admin token: read from `admin-token` when present (and non-empty), otherwise generated
 * and written there with mode 0600. Returns whether it was created now.
 */
export async function loadOrCreateAdminToken(
  paths: DataPaths
): Promise<{ token: string; created: boolean }> {
  const existing = await readFile(paths.adminToken, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return ''
    throw e
  })
  const token = existing.trim()
  if (token) {
    await chmod(paths.adminToken, 0o600)
    return { token, created: false }
  }
  const fresh = generateToken()
  await writePrivateFile(paths.adminToken, `${fresh}\n`)
  return { token: fresh, created: true }
}
