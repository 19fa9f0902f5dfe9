/**
 * The simulated edge as its own process, the way `npm start` will run it: `--help`, then a real
 * start against dynalite with a certificate folder and a token file that does not exist yet — the
 * ready line on stdout, the token file written, the API answering with that token over https, and
 * a clean exit 0 on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForReadyLine } from '../../../infra/edge-sim/ready-line.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { type Dynalite, startDynalite } from '../../helpers/dynalite.ts'

const MAIN = 'infra/edge-sim/main.ts'
const run = (args: string[]) =>
  spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

function get(url: string, token: string, ca: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = ''
      res.on('data', (d: Buffer) => {
        text += d.toString()
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end()
  })
}

let db: Dynalite
let dir: string
beforeAll(async () => {
  db = await startDynalite()
  dir = await mkdtemp(join(tmpdir(), 'edge-sim-main-'))
})
afterAll(async () => {
  await db?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('infra/edge-sim/main.ts', () => {
  it('prints its usage with --help and exits 0; bad flags exit 2', async () => {
    const help = run(['--help'])
    let out = ''
    help.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    expect(await exited(help)).toBe(0)
    expect(out).toContain('--ddb-endpoint URL')
    expect(out).toContain('"ready":true')
    expect(await exited(run(['--name', 'Bad']))).toBe(2)
  })

  it('starts, prints the ready line, answers over https with the token, stops on SIGTERM', async () => {
    const tls = createLocalHubCert()
    await writeFile(join(dir, 'cert.pem'), tls.certPem)
    await writeFile(join(dir, 'key.pem'), tls.keyPem)
    const tokenFile = join(dir, 'token')
    const child = run([
      '--name',
      'guilder',
      '--ddb-endpoint',
      db.endpoint,
      '--token-file',
      tokenFile,
      '--cert-dir',
      dir,
    ])
    const done = exited(child)
    try {
      const ready = await waitForReadyLine(child.stdout!, 60_000)
      expect(ready).toMatchObject({ name: 'guilder', table: 'edge-guilder', pid: child.pid })
      expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
      const token = (await readFile(tokenFile, 'utf8')).trim()
      expect(token.length).toBeGreaterThan(20)
      const nodes = await get(`${ready.url}/api/v1/nodes`, token, tls.certPem)
      expect(nodes.status).toBe(200)
      expect(nodes.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual([
        'guilder-node',
      ])
      expect((await get(`${ready.url}/api/v1/nodes`, 'wrong', tls.certPem)).status).toBe(401)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await done).toBe(0)
  })
})
