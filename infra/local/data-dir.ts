/**
 * The data folder of a local stack and what lives in it:
 *   admin-token   the admin bearer token, generated on first start, mode 0600, reused afterwards;
 *                 to rotate it, replace its content (or delete the file) and restart: the start
 *                 revokes the previous token (lib/auth/bootstrap-admin.ts)
 *   tls/          the hub's self-signed certificate (cert.pem) and key (key.pem, mode 0600)
 *   store-key     the local store's access key (store-key.ts): dynalite serves only requests
 *                 signed with it; generated on first start, reused afterwards
 *   worker.env    the Worker's secrets for `wrangler dev --env-file` (the store key and this
 *                 start's front secret, hub-worker.ts), rewritten on every start
 *   dynalite/     the dynalite (LevelDB) files: every object, token and space
 *   wrangler/     wrangler dev's own persisted state (--persist-to)
 *   wrangler.log  wrangler's and the Worker's output
 *   relay.log     the watch relay's output (JSON log lines)
 *   kubeconfig    contexts for kubectl (mode 0600, it holds the token)
 *   stack.json    URLs, ports and pid of the running stack, for tools and tests
 * Nothing here is deleted on stop except stack.json, so a second start sees the same state.
 * Everything is its owner's alone: folders 0700, files 0600 — tightened on every start, also
 * for folders an earlier version left open; `npm start` sets umask 077, so what its processes
 * write later (dynalite's new files, logs) is created so too.
 */
import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { generateToken } from '../../lib/auth/tokens.ts'
import { createLocalHubCert, type TlsMaterial } from './tls-cert.ts'

export type DataPaths = {
  root: string
  adminToken: string
  dynalite: string
  wrangler: string
  wranglerLog: string
  relayLog: string
  kubeconfig: string
  stackInfo: string
  tlsCert: string
  tlsKey: string
  storeKey: string
  workerEnv: string
}

export function dataPaths(root: string): DataPaths {
  return {
    root,
    adminToken: join(root, 'admin-token'),
    dynalite: join(root, 'dynalite'),
    wrangler: join(root, 'wrangler'),
    wranglerLog: join(root, 'wrangler.log'),
    relayLog: join(root, 'relay.log'),
    kubeconfig: join(root, 'kubeconfig'),
    stackInfo: join(root, 'stack.json'),
    tlsCert: join(root, 'tls', 'cert.pem'),
    tlsKey: join(root, 'tls', 'key.pem'),
    storeKey: join(root, 'store-key'),
    workerEnv: join(root, 'worker.env'),
  }
}

/** The mode bits group and others may not have on anything in the data folder. */
export const NOT_OWNER = 0o077

/**
 * Makes a tree its owner's alone: folders 0700, regular files 0600 (symlinks are left as they
 * are and not followed). Entries that vanish meanwhile are skipped.
 */
export async function restrictTree(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined)
  if (!st || st.isSymbolicLink()) return
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== 0o700) await chmod(path, 0o700)
    const entries = await readdir(path).catch(() => [] as string[])
    for (const name of entries) await restrictTree(join(path, name))
  } else if (st.isFile() && (st.mode & 0o777) !== 0o600) {
    await chmod(path, 0o600).catch(() => undefined)
  }
}

/** Creates the data folder and its sub-folders (idempotent), all owner-only (restrictTree). */
export async function prepareDataDir(root: string): Promise<DataPaths> {
  const paths = dataPaths(root)
  await mkdir(root, { recursive: true, mode: 0o700 })
  for (const dir of [paths.dynalite, paths.wrangler, dirname(paths.tlsCert)])
    await mkdir(dir, { recursive: true, mode: 0o700 })
  await restrictTree(root)
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
const readIfPresent = (path: string) =>
  readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return ''
    throw e
  })

/**
 * The hub's TLS certificate and key: read from `tls/` when both are there, otherwise created
 * (key mode 0600) so that kubeconfigs handed out earlier keep trusting the hub across restarts.
 */
export async function loadOrCreateTls(
  paths: DataPaths
): Promise<TlsMaterial & { created: boolean }> {
  const [certPem, keyPem] = await Promise.all([
    readIfPresent(paths.tlsCert),
    readIfPresent(paths.tlsKey),
  ])
  if (certPem.includes('BEGIN CERTIFICATE') && keyPem.includes('PRIVATE KEY'))
    return { certPem, keyPem, created: false }
  const fresh = createLocalHubCert()
  await writePrivateFile(paths.tlsKey, fresh.keyPem)
  await writePrivateFile(paths.tlsCert, fresh.certPem)
  return { ...fresh, created: true }
}

/** The bearer token kept in `path` (mode 0600), generated when the file is missing or empty. */
export async function loadOrCreateToken(
  path: string
): Promise<{ token: string; created: boolean }> {
  const token = (await readIfPresent(path)).trim()
  if (token) {
    await chmod(path, 0o600)
    return { token, created: false }
  }
  const fresh = generateToken()
  await writePrivateFile(path, `${fresh}\n`)
  return { token: fresh, created: true }
}

export function loadOrCreateAdminToken(
  paths: DataPaths
): Promise<{ token: string; created: boolean }> {
  return loadOrCreateToken(paths.adminToken)
}
