/**
 * The agent's process end to end: `main.ts --once` as a child process (Node's own binary with
 * --experimental-strip-types) against a real in-process edge API (reached through a kubeconfig
 * file) and the fake center of the agent's unit tests; exit codes for success, an unreachable
 * center, a silent one given up on after `--center-timeout`, bad arguments and `--help`; JSON
 * log lines; its report names the agent's version (package.json's), poll interval and its plain
 * poll.
 */
import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileTempDir } from '../../helpers/temp-dir.ts'
import { CENTER_TOKEN, type FakeCenter, startFakeCenter } from '../../lib/edge-agent/fake-center.ts'
import {
  cmRef,
  configMap,
  EDGE_TOKEN,
  type Edge,
  namespace,
  nsRef,
  startEdge,
} from '../../lib/edge-agent/fixture.ts'

const MAIN = join(import.meta.dirname, '../../../infra/edge-agent/main.ts')

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => {
      stdout += c
    })
    child.stderr.on('data', (c) => {
      stderr += c
    })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

let edge: Edge
let center: FakeCenter
let args: string[]
const files = fileTempDir('edge-agent-main-')
let dir: string
beforeAll(async () => {
  edge = await startEdge()
  center = await startFakeCenter('imw-mb-main')
  dir = files()
  await writeFile(join(dir, 'token'), `${CENTER_TOKEN}\n`)
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'edge', cluster: { server: edge.hub.url, 'insecure-skip-tls-verify': true } },
    ],
    users: [{ name: 'agent', user: { token: EDGE_TOKEN } }],
    contexts: [{ name: 'edge', context: { cluster: 'edge', user: 'agent' } }],
    'current-context': 'edge',
  }
  await writeFile(join(dir, 'kubeconfig'), JSON.stringify(kubeconfig))
  args = [
    '--center',
    center.url,
    '--mailbox',
    center.mailbox,
    '--token-file',
    join(dir, 'token'),
    '--kubeconfig',
    join(dir, 'kubeconfig'),
    '--state-dir',
    join(dir, 'state'),
    '--once',
  ]
})
afterAll(async () => {
  await center?.close()
  await edge?.close()
})

describe('edge-agent main', () => {
  it('polls once, applies, logs JSON and exits 0', async () => {
    center.put(nsRef('m1'), namespace('m1'))
    center.put(cmRef('m1', 'c'), configMap('m1', 'c', { a: 'b' }))
    const r = await run(args, { EDGEPLANE_POLL_INTERVAL: '7.5' })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string }
    expect(lines[0]).toMatchObject({ msg: 'edge agent started', version, pollIntervalMs: 7500 })
    expect(center.reports.at(-1)).toMatchObject({
      heartbeat: true,
      // --once: one plain poll, no hold asked, its answer's time by the agent's clock
      agent: {
        version,
        pollIntervalSeconds: 7.5,
        pollMode: 'plain',
        holdSeconds: 0,
        lastPollAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    })
    expect(lines.at(-1)).toMatchObject({
      msg: 'poll',
      component: 'edge-agent',
      mailbox: center.mailbox,
      outcome: 'applied',
      created: 2,
    })
    expect((await edge.get(cmRef('m1', 'c')))?.data).toEqual({ a: 'b' })
  })

  it('exits 1 when the center is unreachable, keeping the edge as it is', async () => {
    center.mode = 'down'
    center.remove(cmRef('m1', 'c'))
    const r = await run(args)
    center.mode = 'up'
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '{}')).toMatchObject({
      level: 'warn',
      outcome: 'offline',
    })
    expect(await edge.get(cmRef('m1', 'c'))).toBeDefined()
  })

  it('gives up on a center that answers nothing after --center-timeout', async () => {
    // Accepts connections and never answers, like a frozen center.
    const held: Socket[] = []
    const silent = createServer((s) => held.push(s))
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    const { port } = silent.address() as { port: number }
    const url = `http://127.0.0.1:${port}`
    try {
      const r = await run(
        args.map((a) => (a === center.url ? url : a)).concat(['--center-timeout', '1'])
      )
      expect(r.code).toBe(1)
      const last = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '{}')
      expect(last).toMatchObject({ level: 'warn', outcome: 'offline' })
      expect(JSON.stringify(last)).toMatch(/no answer within 1000 ms/)
      expect(held.length).toBeGreaterThan(0)
    } finally {
      for (const s of held) s.destroy()
      await new Promise((r) => silent.close(r))
    }
  })

  it('exits 2 on bad arguments, 1 without a token, 0 for --help', async () => {
    expect((await run(['--center', 'nope'])).code).toBe(2)
    const noToken = args.map((a) => (a === join(dir, 'token') ? join(dir, 'missing') : a))
    expect((await run(noToken)).code).toBe(1)
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/--poll-interval/)
    expect(help.stdout).toMatch(/--center-timeout SECONDS/)
  })
})
