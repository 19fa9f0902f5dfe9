import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { reapLeftovers } from '../../../infra/local/leftovers.ts'
import { commandLine } from '../../../infra/local/proc-read.ts'
import { groupAlive, groupMembers } from '../../../infra/local/process-group.ts'
import { bundleName } from '../../../infra/local/program-bundles.ts'
import { type StackInfo, writeStackInfo } from '../../../infra/local/stack-info.ts'
import { EDGE_AGENT_MAIN } from '../../../infra/local/supervise.ts'
import { STACK_MARK } from '../../../infra/local/wrangler-process.ts'
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

const IDLE = 'setInterval(() => {}, 1000)'

/**
 * A group like the one a crashed stack leaves once wrangler itself died: its leader (killed here)
 * had started wrangler's child (naming the wrangler folder on its command line, with a child of
 * its own, like workerd), a process that carries only the stack's mark, and a bystander marked
 * for another stack. Resolves with the group id and the members, once all five ran.
 */
async function orphanedGroup(persistTo: string) {
  const leader = `
    const { spawn } = require('node:child_process')
    const idle = ${JSON.stringify(IDLE)}
    const grandchild = "require('node:child_process').spawn(process.execPath, ['-e', " + JSON.stringify(idle) + ", 'workerd-like'], { stdio: 'ignore' }); " + idle
    spawn(process.execPath, ['-e', grandchild, 'wrangler-child', '--persist-to', ${JSON.stringify(persistTo)}], { stdio: 'ignore', env: {} })
    spawn(process.execPath, ['-e', idle, 'marked'], { stdio: 'ignore', env: { ${STACK_MARK}: ${JSON.stringify(persistTo)} } })
    spawn(process.execPath, ['-e', idle, 'bystander'], { stdio: 'ignore', env: { ${STACK_MARK}: '/another/stack/wrangler' } })
    ${IDLE}`
  const child = spawn(process.execPath, ['-e', leader, 'wrangler-dev'], {
    detached: true,
    stdio: 'ignore',
  })
  child.unref()
  const pgid = child.pid ?? 0
  const deadline = Date.now() + 10_000
  while ((groupMembers(pgid)?.length ?? 0) < 5) {
    if (Date.now() > deadline) throw new Error('the fake group did not start')
    await new Promise((r) => setTimeout(r, 50))
  }
  // Each is told by its last argument (wrangler's child's own script names the grandchild's).
  const named = (last: string) =>
    (groupMembers(pgid) ?? []).filter((pid) => commandLine(pid).trim().endsWith(last))
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(pgid, 'SIGKILL')
  await exited
  return {
    pgid,
    ours: [...named(persistTo), ...named('workerd-like'), ...named('marked')],
    bystander: named('bystander'),
  }
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

  it("stops the stack's members of wrangler's group when wrangler itself is gone", async () => {
    const { pgid, ours, bystander } = await orphanedGroup(join(dir, 'wrangler'))
    try {
      expect(ours).toHaveLength(3)
      expect(bystander).toHaveLength(1)
      const path = join(dir, 'stack.json')
      await writeStackInfo(path, info(pgid))
      expect(await reapLeftovers(path, silentLogger)).toBe(pgid)
      expect(groupMembers(pgid)).toEqual(bystander)
      expect(existsSync(path)).toBe(false)
    } finally {
      process.kill(-pgid, 'SIGKILL')
    }
  })

  it("leaves alone a leaderless group that is not this stack's", async () => {
    const { pgid, ours, bystander } = await orphanedGroup(join(dir, 'other-folder'))
    try {
      const path = join(dir, 'stack.json')
      await writeStackInfo(path, info(pgid))
      expect(await reapLeftovers(path, silentLogger)).toBeUndefined()
      expect(groupMembers(pgid)?.sort()).toEqual([...ours, ...bystander].sort())
    } finally {
      process.kill(-pgid, 'SIGKILL')
    }
  })

  it('does nothing without a stack.json', async () => {
    expect(await reapLeftovers(join(dir, 'stack.json'), silentLogger)).toBeUndefined()
  })
})
