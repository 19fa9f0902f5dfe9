import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { beforeEach, describe, expect, it } from 'vitest'
import { dataPaths } from '../../../infra/local/data-dir.ts'
import type { LocalConfig } from '../../../infra/local/local-config.ts'
import { startLocalStack } from '../../../infra/local/local-stack.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { groupMembers } from '../../../infra/local/process-group.ts'
import { readStackInfo } from '../../../infra/local/stack-info.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { createRemote } from '../../../lib/remote/remote-client.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { waitUntil } from '../../helpers/wait-until.ts'
import { standInServer } from './hub-worker-options.ts'

let dir: string
let cfg: LocalConfig

beforeEach(async () => {
  dir = await tempDir('ep-stack-')
  cfg = {
    port: await pickFreePort(),
    dataDir: dir,
    tableName: 'edgeplane',
    logLevel: 'error',
    relay: false,
    edges: [],
    pollIntervalSeconds: 2,
  }
})

/**
 * Stands in for wrangler dev: plain http on the port it is given (behind the front), 200 always.
 * On SIGUSR2 it logs what wrangler logs when workerd crashes and, unless `recovers`, stops
 * answering (the connection is accepted, nothing comes back), as a dead proxy runtime does.
 */
function fakeHub(recovers = false): string[] {
  const script = [
    standInServer('!globalThis.dead'),
    "console.log('fake hub listening')",
    "process.on('SIGUSR2', () => {",
    "  console.log('[wrangler:warn] The Workers runtime crashed unexpectedly and is being restarted (crash #1).')",
    `  globalThis.dead = ${!recovers}`,
    '})',
  ].join('\n')
  return ['-e', script]
}

/** Waits until stack.json names a wrangler pid other than `old`; returns stack.json. */
async function wranglerReplaced(old: number) {
  for (let i = 0; i < 600; i++) {
    const info = await readStackInfo(dataPaths(dir).stackInfo)
    if (info && info.wrangler.pid !== old) return info
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`wrangler ${old} was not replaced`)
}

const healthz = async (info: { url: string; caFile: string }) =>
  (
    await createRemote({ baseUrl: info.url, ca: await readFile(info.caFile, 'utf8') }).send(
      '/healthz'
    )
  ).status

const base = () => ({ repoRoot: dir, log: silentLogger, readyTimeoutMs: 20_000 })

describe('startLocalStack (with a stand-in for wrangler)', () => {
  it('starts, writes kubeconfig and stack.json, answers over https, and stops cleanly', async () => {
    const stack = await startLocalStack(cfg, { ...base(), wranglerCommand: fakeHub() })
    const p = dataPaths(dir)
    try {
      expect(stack.info.url).toBe(`https://127.0.0.1:${cfg.port}`)
      expect(await readStackInfo(p.stackInfo)).toEqual(stack.info)
      expect(existsSync(join(dir, 'lock'))).toBe(true)
      const kc = new KubeConfig()
      kc.loadFromFile(p.kubeconfig)
      expect(kc.getContexts().map((c) => c.name)).toEqual(['root', 'root:espw'])
      expect(kc.getCurrentCluster()?.server).toBe(`${stack.info.url}/clusters/root`)
      expect(kc.getCurrentUser()?.token).toBe((await readFile(p.adminToken, 'utf8')).trim())
      const ca = await readFile(stack.info.caFile, 'utf8')
      expect((await createRemote({ baseUrl: stack.info.url, ca }).send('/healthz')).status).toBe(
        200
      )
    } finally {
      await stack.stop()
    }
    expect(groupMembers(stack.info.wrangler.pid)).toEqual([])
    expect(existsSync(p.stackInfo)).toBe(false)
    expect(existsSync(join(dir, 'lock'))).toBe(false)
    expect(existsSync(p.kubeconfig)).toBe(true)
  })

  it('restarts a hub whose wrangler dies, rewrites stack.json, and serves again', async () => {
    const stack = await startLocalStack(cfg, { ...base(), wranglerCommand: fakeHub() })
    const first = stack.info.wrangler.pid
    let second = 0
    try {
      expect(stack.info.wrangler.restarts).toBe(0)
      process.kill(first, 'SIGKILL')
      const info = await wranglerReplaced(first)
      second = info.wrangler.pid
      expect(info.wrangler.restarts).toBe(1)
      expect(await healthz(info)).toBe(200)
      expect(groupMembers(first)).toEqual([])
    } finally {
      await stack.stop()
    }
    expect(groupMembers(second)).toEqual([])
  })

  it('restarts a hub whose runtime crashed and that answers nothing since', async () => {
    const stack = await startLocalStack(cfg, {
      ...base(),
      wranglerCommand: fakeHub(false),
      hubSupervision: { recoverMs: 1000, checkMs: 100 },
    })
    try {
      process.kill(stack.info.wrangler.pid, 'SIGUSR2')
      const info = await wranglerReplaced(stack.info.wrangler.pid)
      expect(info.wrangler.restarts).toBe(1)
      expect(await healthz(info)).toBe(200)
      expect(groupMembers(stack.info.wrangler.pid)).toEqual([])
    } finally {
      await stack.stop()
    }
  })

  it('leaves a hub alone whose runtime crash wrangler recovered from', async () => {
    const lines: string[] = []
    const log = createLogger({ level: 'warn', sink: (l) => lines.push(l) })
    const stack = await startLocalStack(cfg, {
      ...base(),
      log,
      wranglerCommand: fakeHub(true),
      hubSupervision: { recoverMs: 1000, checkMs: 100 },
    })
    try {
      process.kill(stack.info.wrangler.pid, 'SIGUSR2')
      const recovered = () => lines.some((l) => l.includes('wrangler restarted it, the hub serves'))
      await waitUntil(recovered)
      expect(recovered()).toBe(true)
      const info = await readStackInfo(dataPaths(dir).stackInfo)
      expect(info?.wrangler).toMatchObject({ pid: stack.info.wrangler.pid, restarts: 0 })
    } finally {
      await stack.stop()
    }
  })

  it('ends through `failed`, with the log tail, once the restart budget is spent', async () => {
    const stack = await startLocalStack(
      { ...cfg, hubRestarts: 1 },
      { ...base(), wranglerCommand: fakeHub() }
    )
    try {
      process.kill(stack.info.wrangler.pid, 'SIGKILL')
      const again = await wranglerReplaced(stack.info.wrangler.pid)
      process.kill(again.wrangler.pid, 'SIGKILL')
      const reason = await stack.failed
      expect(reason).toContain('wrangler dev was killed by SIGKILL; gave up after 1 restarts')
      expect(reason).toContain('fake hub listening')
    } finally {
      await stack.stop()
    }
  })

  it('ends at once with EDGEPLANE_HUB_RESTARTS=0', async () => {
    const stack = await startLocalStack(
      { ...cfg, hubRestarts: 0 },
      { ...base(), wranglerCommand: fakeHub() }
    )
    try {
      process.kill(stack.info.wrangler.pid, 'SIGKILL')
      const reason = await stack.failed
      expect(reason).toMatch(
        /^wrangler dev was killed by SIGKILL; not restarted \(restarts are off\); last lines of /
      )
      expect(reason).toContain('fake hub listening')
    } finally {
      await stack.stop()
    }
  })

  it('fails with the log tail when wrangler exits while starting, and cleans up', async () => {
    const crash = ['-e', "console.error('boom: bad config'); process.exit(1)"]
    const started = startLocalStack(cfg, { ...base(), wranglerCommand: crash })
    await expect(started).rejects.toThrow(/wrangler dev exited with code 1[\s\S]*boom: bad config/)
    expect(existsSync(join(dir, 'lock'))).toBe(false)
    expect(existsSync(dataPaths(dir).stackInfo)).toBe(false)
    const again = await startLocalStack(cfg, { ...base(), wranglerCommand: fakeHub() })
    await again.stop()
  })

  it('stops starting when aborted, leaving nothing running', async () => {
    const never = ['-e', 'setInterval(() => {}, 1000)']
    const abort = new AbortController()
    const started = startLocalStack(cfg, {
      ...base(),
      wranglerCommand: never,
      signal: abort.signal,
    })
    setTimeout(() => abort.abort(new Error('interrupted by SIGINT')), 500)
    await expect(started).rejects.toThrow('interrupted by SIGINT')
    expect(existsSync(join(dir, 'lock'))).toBe(false)
  })

  it('refuses a second stack on the same data folder', async () => {
    const stack = await startLocalStack(cfg, { ...base(), wranglerCommand: fakeHub() })
    try {
      const other = { ...cfg, port: await pickFreePort() }
      await expect(
        startLocalStack(other, { ...base(), wranglerCommand: fakeHub() })
      ).rejects.toThrow('already uses the data folder')
      expect(existsSync(join(dir, 'lock'))).toBe(true)
    } finally {
      await stack.stop()
    }
  })

  it('runs the relay, records its pid and health port, restarts it when killed, and stops it', async () => {
    // Stands in for the relay: prints its arguments and CA variable, then waits.
    const fakeRelay = [
      '-e',
      'console.log(JSON.stringify({ argv: process.argv.slice(1), ca: process.env.NODE_EXTRA_CA_CERTS })); setInterval(() => {}, 1000)',
      '--',
    ]
    const stack = await startLocalStack(
      { ...cfg, relay: true },
      { ...base(), wranglerCommand: fakeHub(), relayCommand: fakeRelay }
    )
    const p = dataPaths(dir)
    let pids: number[] = []
    try {
      const first = stack.info.relay
      expect(first).toMatchObject({ restarts: 0, logFile: p.relayLog })
      const healthPort = first?.healthPort ?? 0
      expect(healthPort).toBeGreaterThan(0)
      expect((await readStackInfo(p.stackInfo))?.relay?.pid).toBe(first?.pid)
      process.kill(first?.pid ?? 0, 'SIGKILL')
      let again: number | undefined
      await waitUntil(async () => {
        again = (await readStackInfo(p.stackInfo))?.relay?.pid
        return again !== undefined && again !== first?.pid
      })
      expect(again).toBeDefined()
      expect(again).not.toBe(first?.pid)
      expect((await readStackInfo(p.stackInfo))?.relay?.restarts).toBe(1)
      pids = [first?.pid ?? 0, again ?? 0]
      let log = ''
      const printed = () => log.includes('(restart 1)') && log.trimEnd().endsWith('}')
      await waitUntil(async () => {
        log = await readFile(p.relayLog, 'utf8')
        return printed()
      })
      expect(log).toContain('--- relay starting at')
      expect(log).toContain(`"ca":${JSON.stringify(p.tlsCert)}`)
      expect(log).toContain(`"--token-file","${p.adminToken}"`)
      expect(log).toContain(`"--hub","${stack.info.url}"`)
      expect(log).toContain(`"--parent-pid","${process.pid}"`)
      // The restarted relay serves its metrics on the port stack.json records.
      expect(log.split('(restart 1)')[1]).toContain(`"--health-port","${healthPort}"`)
      expect((await readStackInfo(p.stackInfo))?.relay?.healthPort).toBe(healthPort)
    } finally {
      await stack.stop()
    }
    for (const pid of pids) expect(groupMembers(pid)).toEqual([])
    expect(existsSync(p.stackInfo)).toBe(false)
  })

  it('leaves the relay out with EDGEPLANE_RELAY=off', async () => {
    const stack = await startLocalStack(cfg, { ...base(), wranglerCommand: fakeHub() })
    try {
      expect(stack.info.relay).toBeUndefined()
      expect((await readStackInfo(dataPaths(dir).stackInfo))?.relay).toBeUndefined()
    } finally {
      await stack.stop()
    }
  })
})
