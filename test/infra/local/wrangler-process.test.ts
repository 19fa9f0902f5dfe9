import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { environHas } from '../../../infra/local/proc-read.ts'
import { groupMembers } from '../../../infra/local/process-group.ts'
import {
  LOCAL_ENV,
  STACK_MARK,
  startWrangler,
  WRANGLER_ENV,
  type WranglerOptions,
  wranglerArgs,
  wranglerBin,
  wranglerEnv,
} from '../../../infra/local/wrangler-process.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { waitUntil } from '../../helpers/wait-until.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-wr-')
})

const base = (): WranglerOptions => ({
  cwd: dir,
  port: 8800,
  inspectorPort: 9229,
  persistTo: join(dir, 'state'),
  logFile: join(dir, 'wrangler.log'),
  vars: { DDB_ENDPOINT: 'http://127.0.0.1:4567', TABLE_NAME: 'edgeplane' },
})

/** A stand-in for wrangler: starts a grandchild (like workerd), records its pid, prints, sleeps. */
function fakeWrangler(pidFile: string, ignoreTerm: boolean): string[] {
  const script = [
    "const { spawn } = require('node:child_process')",
    "const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })",
    ignoreTerm ? "process.on('SIGTERM', () => {})" : '',
    "console.log('fake wrangler up')",
    `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid))`,
    'setInterval(() => {}, 1000)',
  ].join('\n')
  return ['-e', script]
}

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = existsSync(path) ? await readFile(path, 'utf8') : ''
    if (text) return text
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`${path} was not written`)
}

describe('wrangler dev process', () => {
  it('passes the listen address, ports, state folder and vars on the command line', () => {
    const args = wranglerArgs(base())
    expect(args.slice(0, 7)).toEqual([
      'dev',
      '--env',
      LOCAL_ENV,
      '--ip',
      '127.0.0.1',
      '--port',
      '8800',
    ])
    expect(LOCAL_ENV).toBe('local')
    expect(args.join(' ')).toContain('--inspector-port 9229')
    // The cron ticker asks wrangler's own scheduled route (cron-ticker.ts): no test route needed.
    expect(args).not.toContain('--test-scheduled')
    expect(args).not.toContain('--no-bundle')
    expect(args).toContain('--show-interactive-dev-session=false')
    expect(args.join(' ')).toContain(`--persist-to ${join(dir, 'state')}`)
    expect(args.join(' ')).toContain(
      '--var DDB_ENDPOINT:http://127.0.0.1:4567 --var TABLE_NAME:edgeplane'
    )
    expect(existsSync(wranglerBin())).toBe(true)
    expect(WRANGLER_ENV.WRANGLER_SEND_METRICS).toBe('false')
  })

  it("turns wrangler's local observability and explorer off unless the environment asks", () => {
    const env = wranglerEnv({ PATH: '/bin', WRANGLER_SEND_METRICS: 'true' }, 8800)
    expect(env).toMatchObject({ X_LOCAL_OBSERVABILITY: 'false', X_LOCAL_EXPLORER: 'false' })
    expect(env).toMatchObject({ PATH: '/bin', EDGEPLANE_WORKER_PORT: '8800' })
    // what the stack must have is not the caller's to change
    expect(env.WRANGLER_SEND_METRICS).toBe('false')
    expect(wranglerEnv({ X_LOCAL_OBSERVABILITY: 'true' }, 1).X_LOCAL_OBSERVABILITY).toBe('true')
  })

  it('runs a built Worker as it is when given one', () => {
    const args = wranglerArgs({ ...base(), script: '/cache/set/worker/index.js' })
    expect(args.slice(0, 5)).toEqual([
      'dev',
      '/cache/set/worker/index.js',
      '--no-bundle',
      '--env',
      LOCAL_ENV,
    ])
  })

  it('reads the Worker secrets from the env file alone, never from its own environment', () => {
    expect(wranglerArgs(base())).not.toContain('--env-file')
    const args = wranglerArgs({ ...base(), envFile: join(dir, 'worker.env') }).join(' ')
    expect(args).toContain(`--env-file ${join(dir, 'worker.env')}`)
    const env = wranglerEnv({ CLOUDFLARE_INCLUDE_PROCESS_ENV: 'true' }, 1)
    expect(env.CLOUDFLARE_INCLUDE_PROCESS_ENV).toBe('false')
    expect(env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV).toBe('true')
  })

  it('serves plain http and names the front as the public origin', () => {
    const args = wranglerArgs({ ...base(), origin: 'https://127.0.0.1:8787' }).join(' ')
    expect(args).toContain('--local-upstream 127.0.0.1:8787 --upstream-protocol https')
    expect(args).not.toContain('--local-protocol')
  })

  it('stop() ends the child and its own children (no orphans) and logs to the file', async () => {
    const pidFile = join(dir, 'grandchild')
    const w = startWrangler({ ...base(), command: fakeWrangler(pidFile, false) })
    const grandchild = Number(await waitForFile(pidFile))
    expect(groupMembers(w.pid)).toEqual(expect.arrayContaining([w.pid, grandchild]))
    // The grandchild (workerd) inherits the stack's mark, so leftovers.ts can tell it is ours.
    expect(environHas(grandchild, STACK_MARK, base().persistTo)).toBe(true)
    expect(w.exitReason()).toBeUndefined()
    await w.stop()
    expect(groupMembers(w.pid)).toEqual([])
    expect(w.exitReason()).toBe('wrangler dev was killed by SIGTERM')
    const log = await readFile(join(dir, 'wrangler.log'), 'utf8')
    expect(log).toContain('wrangler dev starting at')
    expect(log).toContain('fake wrangler up')
  })

  it('falls back to SIGKILL when SIGTERM is ignored', async () => {
    const pidFile = join(dir, 'grandchild')
    const w = startWrangler({ ...base(), command: fakeWrangler(pidFile, true) })
    await waitForFile(pidFile)
    await new Promise((r) => setTimeout(r, 200))
    await w.stop(300)
    expect(groupMembers(w.pid)).toEqual([])
    expect(w.exitReason()).toBe('wrangler dev was killed by SIGKILL')
  })

  it('reports an exit on its own with the code', async () => {
    const w = startWrangler({ ...base(), command: ['-e', 'process.exit(3)'] })
    expect(await w.exited).toBe('wrangler dev exited with code 3')
    await w.stop()
  })

  it('spots a failed build while wrangler keeps running', async () => {
    const script =
      "console.log('\\u001b[31mBuild failed with 2 errors:\\u001b[0m'); setInterval(() => {}, 1000)"
    const w = startWrangler({ ...base(), command: ['-e', script] })
    try {
      // However long the process takes to start (the test's timeout bounds it), once the line is
      // in the log the problem is reported.
      const log = join(dir, 'wrangler.log')
      await waitUntil(async () => (await readFile(log, 'utf8')).includes('Build failed'))
      expect(w.startupProblem()).toBe('wrangler dev could not build the Worker')
      expect(w.exitReason()).toBeUndefined()
    } finally {
      await w.stop()
    }
  })

  it('reports each runtime crash wrangler logs once, and none from an earlier run', async () => {
    const old = startWrangler({
      ...base(),
      command: ['-e', "console.log('The Workers runtime crashed unexpectedly (crash #1).')"],
    })
    await old.exited
    // The handler is in place before 'Ready' is written: the test signals as soon as it reads
    // 'Ready', and a SIGUSR2 arriving before the handler would kill the fake wrangler instead.
    const script = [
      "process.on('SIGUSR2', () => console.log('[wrangler:warn] The Workers runtime crashed unexpectedly and is being restarted (crash #1).'))",
      "console.log('Ready')",
      'setInterval(() => {}, 1000)',
    ].join('\n')
    const w = startWrangler({ ...base(), command: ['-e', script] })
    try {
      const log = join(dir, 'wrangler.log')
      await waitUntil(async () => (await readFile(log, 'utf8')).endsWith('Ready\n'))
      expect(w.runtimeCrashed()).toBe(false)
      process.kill(w.pid, 'SIGUSR2')
      // runtimeCrashed() reports each crash once: the wait's answer is that report.
      expect(await waitUntil(() => w.runtimeCrashed())).toBe(true)
      expect(w.runtimeCrashed()).toBe(false)
    } finally {
      await w.stop()
    }
  })

  it('does not blame a new start for a failed build logged by an earlier one', async () => {
    const old = startWrangler({
      ...base(),
      command: ['-e', "console.log('Build failed with 1 error')"],
    })
    await old.exited
    const fresh = startWrangler({
      ...base(),
      command: ['-e', "console.log('Ready'); setInterval(() => {}, 1000)"],
    })
    try {
      await new Promise((r) => setTimeout(r, 300))
      expect(fresh.startupProblem()).toBeUndefined()
    } finally {
      await fresh.stop()
    }
  })
})
