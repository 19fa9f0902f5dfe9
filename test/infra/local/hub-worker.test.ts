import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { FRONT_HEADER, FRONT_SECRET_VAR } from '../../../functions/front-gate.ts'
import { hubUrlFor, PORT_ATTEMPTS, startHubWorker } from '../../../infra/local/hub-worker.ts'
import { groupMembers } from '../../../infra/local/process-group.ts'
import { generateStoreKey } from '../../../infra/local/store-key.ts'
import type { WranglerProcess } from '../../../infra/local/wrangler-process.ts'
import { INSTANCE_HEADER } from '../../../lib/instance-label.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { hubWorkerOptions, standInServer } from './hub-worker-options.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-hw-')
})

const options = (command: string[]) => hubWorkerOptions(dir, command)

describe('startHubWorker', () => {
  it('gives up on a failed build, stops wrangler and shows the log tail', async () => {
    let spawned: WranglerProcess | undefined
    const opts = await options([
      '-e',
      "console.log('Build failed with 2 errors: nope'); setInterval(() => {}, 1000)",
    ])
    await expect(startHubWorker({ ...opts, onSpawn: (w) => (spawned = w) })).rejects.toThrow(
      /could not build the Worker[\s\S]*Build failed with 2 errors: nope/
    )
    expect(spawned?.pid).toBeGreaterThan(0)
    expect(groupMembers(spawned?.pid ?? 0)).toEqual([])
  })

  it('gives up at the deadline when /healthz never answers', async () => {
    const opts = await options(['-e', 'setInterval(() => {}, 1000)'])
    await expect(startHubWorker({ ...opts, readyTimeoutMs: 300 })).rejects.toThrow(
      `${hubUrlFor(opts.port)}/healthz did not answer 200`
    )
  })

  it('picks new ports and starts again when wrangler finds its port taken', async () => {
    const marker = join(dir, 'tried')
    // the stand-in fails as wrangler does the first time (its port taken meanwhile), then serves
    const opts = await options([
      '-e',
      [
        "const fs = require('node:fs')",
        `if (!fs.existsSync(${JSON.stringify(marker)})) {`,
        `  fs.writeFileSync(${JSON.stringify(marker)}, process.env.EDGEPLANE_WORKER_PORT)`,
        "  console.log('✘ [ERROR] Address already in use (127.0.0.1:' + process.env.EDGEPLANE_WORKER_PORT + ').')",
        '  process.exit(1)',
        '}',
        standInServer(),
      ].join('\n'),
    ])
    const hub = await startHubWorker(opts)
    try {
      expect(await hub.probe()).toBe(true)
      expect(String(hub.workerPort)).not.toBe(await readFile(marker, 'utf8'))
    } finally {
      await hub.wrangler.stop()
      await hub.front.close()
    }
  })

  it('gives up after PORT_ATTEMPTS starts that all find their port taken', async () => {
    const opts = await options([
      '-e',
      "console.log('✘ [ERROR] Address already in use (127.0.0.1:1).'); process.exit(1)",
    ])
    await expect(startHubWorker(opts)).rejects.toThrow(/Address already in use/)
    const log = await readFile(opts.logFile, 'utf8')
    expect(log.match(/Address already in use/g)).toHaveLength(PORT_ATTEMPTS)
  })

  it('does not take another process answering on its port for the Worker it started', async () => {
    // what a stack saw when another stack's Worker took its port: 200 from /healthz, unlabelled
    const opts = await options(['-e', standInServer('true', false)])
    await expect(startHubWorker({ ...opts, readyTimeoutMs: 600 })).rejects.toThrow(
      /healthz did not answer 200 as instance [0-9a-f-]{36}/
    )
  })

  it("writes the Worker's env file and lets only the front and the probe past its secret", async () => {
    const envFile = join(dir, 'worker.env')
    const storeKey = generateStoreKey()
    // The stand-in answers as the Worker's front gate does: 403 without this start's secret.
    const opts = await options([
      '-e',
      [
        "const fs = require('node:fs')",
        `const env = fs.readFileSync(${JSON.stringify(envFile)}, 'utf8')`,
        `const secret = /^${FRONT_SECRET_VAR}=([0-9a-f]{64})$/m.exec(env)[1]`,
        "require('node:http').createServer((q, s) => {",
        `  if (q.headers[${JSON.stringify(FRONT_HEADER)}] !== secret) { s.statusCode = 403; return s.end('no') }`,
        `  s.setHeader(${JSON.stringify(INSTANCE_HEADER)}, process.env.EDGEPLANE_WORKER_INSTANCE)`,
        "  s.end('ok')",
        "}).listen(Number(process.env.EDGEPLANE_WORKER_PORT), '127.0.0.1')",
      ].join('\n'),
    ])
    const hub = await startHubWorker({ ...opts, envFile, storeKey })
    try {
      expect((await stat(envFile)).mode & 0o777).toBe(0o600)
      const env = await readFile(envFile, 'utf8')
      expect(env).toContain(`AWS_ACCESS_KEY_ID=${storeKey.accessKeyId}\n`)
      expect(env).toContain(`AWS_SECRET_ACCESS_KEY=${storeKey.secretAccessKey}\n`)
      expect(await hub.probe()).toBe(true)
      const direct = await fetch(`http://127.0.0.1:${hub.workerPort}/healthz`)
      expect(direct.status).toBe(403)
    } finally {
      await hub.wrangler.stop()
      await hub.front.close()
    }
  })

  it('hub URLs are https on loopback', () => {
    expect(hubUrlFor(8787)).toBe('https://127.0.0.1:8787')
  })
})
