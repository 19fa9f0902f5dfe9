import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type HubSupervisorOptions, superviseHub } from '../../../infra/local/hub-supervisor.ts'
import { type HubWorker, startHubWorker } from '../../../infra/local/hub-worker.ts'
import { groupMembers } from '../../../infra/local/process-group.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { waitUntil } from '../../helpers/wait-until.ts'
import { hubWorkerOptions, standInServer } from './hub-worker-options.ts'

let dir: string
let hub: HubWorker | undefined

beforeEach(async () => {
  dir = await tempDir('ep-hs-')
})
afterEach(async () => {
  await hub?.wrangler.stop()
  await hub?.front.close()
  hub = undefined
})

/**
 * A stand-in for wrangler dev serving /healthz on its port, unless the file `broken` exists when
 * it starts: then it logs a failed build (as wrangler does) and keeps running.
 */
const fakeWrangler = (brokenFile: string) => [
  '-e',
  [
    `if (require('node:fs').existsSync(${JSON.stringify(brokenFile)})) console.log('Build failed with 1 error: broken')`,
    `else ${standInServer()}`,
    'setInterval(() => {}, 1000)',
  ].join('\n'),
]

async function startHub(): Promise<HubWorker> {
  hub = await startHubWorker(await hubWorkerOptions(dir, fakeWrangler(join(dir, 'broken'))))
  return hub
}

/** The supervisor of `h`, restarting with its respawn and probing its /healthz. */
const supervise = (h: HubWorker, more: Partial<HubSupervisorOptions> = {}) =>
  superviseHub({
    first: h.wrangler,
    respawn: h.respawn,
    probe: () => h.probe(),
    logFile: join(dir, 'wrangler.log'),
    log: silentLogger,
    ...more,
  })

describe('superviseHub', () => {
  it('restarts wrangler on the same ports and reports each new process', async () => {
    const h = await startHub()
    const seen: number[] = []
    const sup = supervise(h, { onRestart: (w, n) => seen.push(w.pid, n) })
    try {
      expect(await h.probe()).toBe(true)
      process.kill(h.wrangler.pid, 'SIGKILL')
      await waitUntil(() => seen.length > 0)
      expect(seen).toEqual([sup.current().pid, 1])
      expect(sup.current().pid).not.toBe(h.wrangler.pid)
      expect(await h.probe()).toBe(true)
    } finally {
      await sup.stop()
    }
    expect(groupMembers(sup.current().pid)).toEqual([])
    expect(await h.probe(1000)).toBe(false)
  })

  it('gives up when the restarted wrangler does not come up, with its log tail', async () => {
    const h = await startHub()
    const lines: string[] = []
    const log = createLogger({ level: 'debug', sink: (line) => lines.push(line) })
    const sup = supervise(h, { log })
    try {
      await writeFile(join(dir, 'broken'), '')
      process.kill(h.wrangler.pid, 'SIGKILL')
      // The supervisor gives up within a second or so; should it not, say what it did instead
      // (a test timeout says nothing): its log, its restarts and wrangler's log.
      const late = new Promise<string>((resolve) => setTimeout(() => resolve('late'), 12_000))
      const reason = await Promise.race([sup.failed, late])
      if (reason === 'late') {
        const wranglerLog = await readFile(join(dir, 'wrangler.log'), 'utf8').catch(String)
        expect.fail(
          `no verdict after 12 s; restarts ${sup.restarts()}, current pid ${sup.current().pid}\n` +
            `supervisor log:\n${lines.join('\n')}\nwrangler log:\n${wranglerLog}`
        )
      }
      expect(reason).toMatch(/^wrangler dev was killed by SIGKILL; restarting it failed: /)
      expect(reason).toContain('could not build the Worker')
      expect(reason).toContain('Build failed with 1 error: broken')
      expect(sup.restarts()).toBe(0)
    } finally {
      await sup.stop()
    }
  })
})
