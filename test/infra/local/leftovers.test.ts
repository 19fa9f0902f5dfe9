import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { reapLeftovers } from '../../../infra/local/leftovers.ts'
import { groupAlive } from '../../../infra/local/process-group.ts'
import { bundleName } from '../../../infra/local/program-bundles.ts'
import { type StackInfo, writeStackInfo } from '../../../infra/local/stack-info.ts'
import { EDGE_AGENT_MAIN } from '../../../infra/local/supervise.ts'
import { silentLogger } from '../../../lib/log.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-left-')
})

function info(wranglerPid: number): StackInfo {
  return {
    pid: 999_999,
    url: 'https://127.0.0.1:1',
    port: 1,
    dataDir: dir,
    kubeconfig: '',
    adminTokenFile: '',
    caFile: '',
    dynalite: { endpoint: '', port: 1, path: '' },
    tableName: 'edgeplane',
    wrangler: { pid: wranglerPid, inspectorPort: 1, logFile: '' },
    edges: [],
    startedAt: '',
  }
}

/** A detached process whose command line mentions wrangler, like a left-over `wrangler dev`. */
function fakeWrangler(argv1: string): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', argv1], {
    detached: true,
    stdio: 'ignore',
  })
  child.unref()
  return child.pid ?? 0
}

describe('reapLeftovers', () => {
  it('stops a left-over wrangler group and removes the stale stack.json', async () => {
    const pid = fakeWrangler('wrangler-dev')
    const path = join(dir, 'stack.json')
    await writeStackInfo(path, info(pid))
    expect(await reapLeftovers(path, silentLogger)).toBe(pid)
    expect(groupAlive(pid)).toBe(false)
    expect(existsSync(path)).toBe(false)
  })

  it('leaves alone a process that is not wrangler (a reused pid)', async () => {
    const pid = fakeWrangler('something-else')
    const path = join(dir, 'stack.json')
    try {
      await writeStackInfo(path, info(pid))
      expect(await reapLeftovers(path, silentLogger)).toBeUndefined()
      expect(groupAlive(pid)).toBe(true)
      expect(existsSync(path)).toBe(false)
    } finally {
      process.kill(-pid, 'SIGKILL')
    }
  })

  it('stops a left-over agent run from its bundle', async () => {
    const wrangler = fakeWrangler('wrangler-dev')
    const agent = fakeWrangler(`/cache/set/${bundleName(EDGE_AGENT_MAIN)}`)
    const path = join(dir, 'stack.json')
    await writeStackInfo(path, {
      ...info(wrangler),
      edges: [
        { name: 'e1', url: '', port: 1, mailbox: '', dir: '', pid: 999_997, agentPid: agent },
      ],
    })
    await reapLeftovers(path, silentLogger)
    expect(groupAlive(agent)).toBe(false)
    expect(groupAlive(wrangler)).toBe(false)
  })

  it('stops a left-over relay too, and leaves a reused relay pid alone', async () => {
    const wrangler = fakeWrangler('wrangler-dev')
    const relay = fakeWrangler('infra/relay/main.ts')
    const other = fakeWrangler('not-the-relay')
    const path = join(dir, 'stack.json')
    try {
      await writeStackInfo(path, {
        ...info(wrangler),
        relay: { pid: relay, restarts: 0, logFile: '' },
      })
      await reapLeftovers(path, silentLogger)
      expect(groupAlive(relay)).toBe(false)
      expect(groupAlive(wrangler)).toBe(false)
      await writeStackInfo(path, {
        ...info(999_998),
        relay: { pid: other, restarts: 2, logFile: '' },
      })
      await reapLeftovers(path, silentLogger)
      expect(groupAlive(other)).toBe(true)
    } finally {
      process.kill(-other, 'SIGKILL')
    }
  })

  it('does nothing without a stack.json', async () => {
    expect(await reapLeftovers(join(dir, 'stack.json'), silentLogger)).toBeUndefined()
  })
})
