/**
 * `npm start` keeps its hub up and its data private, on the real stack: the data folder and
 * everything in it (dynalite's files, the admin token, the TLS key, logs) is its owner's alone;
 * killing either workerd wrangler dev runs (the proxy on wrangler's port, or the Worker's own
 * runtime) or wrangler itself leaves the hub serving again, data intact; and with
 * EDGEPLANE_HUB_RESTARTS=0 a killed wrangler ends the stack with exit code 1 and the reason.
 */
import { existsSync, readFileSync } from 'node:fs'
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pickFreePort } from '../../infra/local/ports.ts'
import { groupMembers } from '../../infra/local/process-group.ts'
import { readStackInfo } from '../../infra/local/stack-info.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type E2eStack, runStartProgram, startStack } from './helpers/stack.ts'

let stack: E2eStack | undefined

beforeAll(async () => {
  stack = await startStack({ relay: false })
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace('kept') }))
  ok(await stack.kubectl(['create', '-f', '-'], { input: configMap('kept', 'cm', { k: 'v' }) }))
})
afterAll(async () => {
  await stack?.destroy()
})

const s = () => {
  if (!stack) throw new Error('no stack')
  return stack
}

/** Paths under `root` whose mode lets group or others in (symlinks skipped). */
async function openToOthers(root: string): Promise<string[]> {
  const found: string[] = []
  const st = await lstat(root)
  if (st.isSymbolicLink()) return found
  if (st.mode & 0o077) found.push(`${root} ${(st.mode & 0o777).toString(8)}`)
  if (st.isDirectory())
    for (const name of await readdir(root)) found.push(...(await openToOthers(join(root, name))))
  return found
}

/** The workerd processes in wrangler's process group, with their command lines. */
function workerds(wranglerPid: number): { pid: number; cmdline: string }[] {
  return (groupMembers(wranglerPid) ?? [])
    .map((pid) => {
      try {
        const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
        return comm === 'workerd' ? { pid, cmdline } : undefined
      } catch {
        return undefined
      }
    })
    .filter((w) => w !== undefined)
}

/**
 * Waits until the recorded wrangler dev is alive with both its workerds (the proxy on its port and
 * the Worker's own) and the hub answers: a kill in an earlier test can still be followed by a
 * restart (wrangler restarting its workerd, or the supervisor restarting wrangler once it saw the
 * hub down), during which the recorded pid is briefly one that is going away.
 */
async function settledHub() {
  let found: { info: Awaited<ReturnType<E2eStack['readInfo']>>; proxy: number; own: number }
  await eventually(async () => {
    const info = await s().readInfo()
    const all = workerds(info.wrangler.pid)
    const onPort = (w: { cmdline: string }) =>
      w.cmdline.includes(`entry=127.0.0.1:${info.wrangler.port}`)
    const proxy = all.find(onPort)
    const own = all.find((w) => !onPort(w))
    expect(proxy && own, `workerds of wrangler ${info.wrangler.pid}`).toBeTruthy()
    expect((await s().api('/healthz', { token: null, timeoutMs: 5000 })).status).toBe(200)
    found = { info, proxy: proxy?.pid ?? 0, own: own?.pid ?? 0 }
  }, 90_000)
  return found!
}

async function servesWithData(): Promise<void> {
  await eventually(async () => {
    expect((await s().api('/healthz', { token: null, timeoutMs: 5000 })).status).toBe(200)
    const cm = okJson<KubeObject & { data?: unknown }>(
      await s().kubectl(['get', 'cm', 'cm', '-n', 'kept', '-o', 'json'])
    )
    expect(cm.data).toEqual({ k: 'v' })
  }, 90_000)
}

describe('the data folder', () => {
  it('is readable by its owner only, dynalite files, token and key included', async () => {
    const dir = s().dataDir
    expect(existsSync(join(dir, 'dynalite'))).toBe(true)
    expect((await readdir(join(dir, 'dynalite'))).length).toBeGreaterThan(0)
    expect(await openToOthers(dir)).toEqual([])
  })
})

describe('hub supervision', () => {
  it("serves again after the proxy workerd on wrangler's port is killed", async () => {
    const { proxy } = await settledHub()
    process.kill(proxy, 'SIGKILL')
    await servesWithData()
    expect(s().output()).toMatch(/hub down; restarting wrangler dev|wrangler restarted it/)
  }, 150_000)

  it("serves again after the Worker's own workerd is killed", async () => {
    const { own } = await settledHub()
    process.kill(own, 'SIGKILL')
    await servesWithData()
  }, 150_000)

  it('restarts wrangler dev when it is killed, and records the new pid', async () => {
    const before = (await settledHub()).info
    process.kill(before.wrangler.pid, 'SIGKILL')
    await eventually(async () => {
      expect((await s().readInfo()).wrangler.pid).not.toBe(before.wrangler.pid)
    }, 90_000)
    await servesWithData()
    const after = await s().readInfo()
    expect(after.wrangler.restarts).toBeGreaterThan(before.wrangler.restarts ?? 0)
    expect(groupMembers(before.wrangler.pid)).toEqual([])
    await s().destroy()
    stack = undefined
  }, 150_000)

  it('ends the stack with the reason when restarts are off', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'edgeplane-e2e-'))
    const stackJson = join(dataDir, 'stack.json')
    try {
      const run = runStartProgram(
        {
          EDGEPLANE_DATA: dataDir,
          EDGEPLANE_PORT: String(await pickFreePort()),
          EDGEPLANE_RELAY: 'off',
          EDGEPLANE_EDGES: '',
          EDGEPLANE_HUB_RESTARTS: '0',
          LOG_LEVEL: 'warn',
        },
        [],
        150_000
      )
      let pid: number | undefined
      await eventually(async () => {
        pid = (await readStackInfo(stackJson))?.wrangler.pid
        expect(pid).toBeDefined()
      }, 140_000)
      process.kill(pid ?? 0, 'SIGKILL')
      const result = await run
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(
        'edgeplane stopped unexpectedly: wrangler dev was killed by SIGKILL; not restarted'
      )
      expect(groupMembers(pid ?? 0)).toEqual([])
      expect(existsSync(stackJson)).toBe(false)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
