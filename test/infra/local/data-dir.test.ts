import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  dataPaths,
  loadOrCreateAdminToken,
  loadOrCreateTls,
  prepareDataDir,
  restrictTree,
  writePrivateFile,
} from '../../../infra/local/data-dir.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-data-')
})

const mode = async (p: string) => (await stat(p)).mode & 0o777

describe('data folder', () => {
  it('creates the folder with dynalite/ and wrangler/ (twice is fine)', async () => {
    const root = join(dir, 'nested', 'data')
    const paths = await prepareDataDir(root)
    await prepareDataDir(root)
    expect((await stat(paths.dynalite)).isDirectory()).toBe(true)
    expect((await stat(paths.wrangler)).isDirectory()).toBe(true)
    expect(paths.kubeconfig).toBe(join(root, 'kubeconfig'))
    expect(paths.stackInfo).toBe(join(root, 'stack.json'))
  })

  it('creates every folder 0700, whatever the umask', async () => {
    const root = join(dir, 'fresh')
    const old = process.umask(0o022)
    try {
      const paths = await prepareDataDir(root)
      for (const d of [root, paths.dynalite, paths.wrangler, join(root, 'tls')])
        expect(await mode(d), d).toBe(0o700)
    } finally {
      process.umask(old)
    }
  })

  it('tightens a folder an earlier run left readable: folders 0700, files 0600', async () => {
    const root = join(dir, 'old')
    await mkdir(join(root, 'dynalite'), { recursive: true, mode: 0o755 })
    await mkdir(join(root, 'edges', 'florin', 'agent'), { recursive: true, mode: 0o755 })
    await chmod(root, 0o755)
    const files = [
      join(root, 'dynalite', '000005.ldb'),
      join(root, 'edges', 'florin', 'admin-token'),
      join(root, 'relay.log'),
    ]
    for (const f of files) await writeFile(f, 'x', { mode: 0o644 })
    const outside = join(dir, 'outside')
    await writeFile(outside, 'not ours', { mode: 0o644 })
    await symlink(outside, join(root, 'link'))
    await prepareDataDir(root)
    for (const d of [root, join(root, 'dynalite'), join(root, 'edges', 'florin', 'agent')])
      expect(await mode(d), d).toBe(0o700)
    for (const f of files) expect(await mode(f), f).toBe(0o600)
    expect(await mode(outside)).toBe(0o644)
    await restrictTree(join(dir, 'missing'))
  })

  it('generates the admin token once, mode 0600, and reuses it', async () => {
    const paths = await prepareDataDir(dir)
    const first = await loadOrCreateAdminToken(paths)
    expect(first.created).toBe(true)
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(await mode(paths.adminToken)).toBe(0o600)
    const second = await loadOrCreateAdminToken(paths)
    expect(second).toEqual({ token: first.token, created: false })
  })

  it('regenerates an empty token file and tightens a readable one', async () => {
    const paths = dataPaths(dir)
    await writeFile(paths.adminToken, '\n')
    const fresh = await loadOrCreateAdminToken(paths)
    expect(fresh.created).toBe(true)
    expect((await readFile(paths.adminToken, 'utf8')).trim()).toBe(fresh.token)
    await writeFile(paths.adminToken, 'kept-token\n', { mode: 0o644 })
    const kept = await loadOrCreateAdminToken(paths)
    expect(kept).toEqual({ token: 'kept-token', created: false })
    expect(await mode(paths.adminToken)).toBe(0o600)
  })

  it('writePrivateFile makes even an existing file owner-only', async () => {
    const p = join(dir, 'f')
    await writeFile(p, 'x', { mode: 0o666 })
    await writePrivateFile(p, 'secret')
    expect(await readFile(p, 'utf8')).toBe('secret')
    expect(await mode(p)).toBe(0o600)
  })

  it('creates the TLS certificate once (key 0600) and reuses it; a broken pair is replaced', async () => {
    const paths = await prepareDataDir(dir)
    const first = await loadOrCreateTls(paths)
    expect(first.created).toBe(true)
    expect(await mode(paths.tlsKey)).toBe(0o600)
    expect(await mode(paths.tlsCert)).toBe(0o600)
    expect(await readFile(paths.tlsCert, 'utf8')).toBe(first.certPem)
    const second = await loadOrCreateTls(paths)
    expect(second).toEqual({ certPem: first.certPem, keyPem: first.keyPem, created: false })
    await writeFile(paths.tlsKey, '')
    const third = await loadOrCreateTls(paths)
    expect(third.created).toBe(true)
    expect(third.certPem).not.toBe(first.certPem)
  })
})
