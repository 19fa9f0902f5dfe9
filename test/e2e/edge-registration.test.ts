/**
 * Registering an edge as the README's "Edge clusters" section says, end to end through `npm
 * start` (florin and guilder simulated and joined by the stack) and real kubectl: its shell block
 * runs as written — against the stack found through EDGEPLANE_DATA, in a folder of the repository
 * — and registers a new edge, tulip (a bare simulated cluster of its own), whose agent, configured
 * from the Secret the manifests put there, polls and makes tulip Ready. Running the bootstrap again
 * without --rotate is refused (exit 3, nothing written), also for florin as the README's earlier
 * example had it, and florin's agent keeps polling; the agents' and the relay's /metrics, on the
 * ports stack.json records, and the hub's carry edgeplane_build_info and process series. A
 * rotation cuts off the agent using the old token, which says why in its log, and recovers once
 * the new Secret is in place; and a restart of the stack repairs florin (its token rotated) and
 * guilder (its Secret applied from a bootstrap naming https://center.example:8787), saying why.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_EDGES } from '../../infra/local/edges-config.ts'
import { IMAGE_VERSION } from '../../lib/edge/manifests-image.ts'
import { parseExposition } from '../helpers/exposition.ts'
import { hasPromtool } from '../helpers/promtool.ts'
import {
  agentSecret,
  localGet,
  readmeBlockRunBy,
  type Shell,
  shellFor,
  startAgentFromSecret,
  startBareEdge,
} from './helpers/edge-registration.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { type E2eStack, REPO_ROOT, startStack } from './helpers/stack.ts'

const TEST_MS = 300_000
const WAIT = 120_000
const TOKEN_REFUSED = "the center refused this edge's token (401): it was rotated or revoked"
const promtool = hasPromtool()

let stack: E2eStack
let dir: string
let shell: Shell
let block: string
let tulip: Awaited<ReturnType<typeof startBareEdge>> | undefined
let agent: Awaited<ReturnType<typeof startAgentFromSecret>> | undefined

beforeAll(async () => {
  stack = await startStack({ edges: DEFAULT_EDGES })
  // Inside the repository (test-results/ is ignored): npm finds the package from there, and a
  // relative --out lands in this folder, the one the commands are typed in.
  const results = join(REPO_ROOT, 'test-results')
  await mkdir(results, { recursive: true })
  dir = await mkdtemp(join(results, 'edge-registration-'))
  tulip = await startBareEdge(stack, 'tulip', dir)
  shell = shellFor(stack, dir, [tulip.kubeconfig])
  block = await readmeBlockRunBy('test/e2e/edge-registration.test.ts')
}, 240_000)
afterAll(async () => {
  await agent?.stop()
  await tulip?.stop()
  await stack?.destroy()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The README block's bootstrap command, as written. */
const bootstrapLine = () => {
  const line = block.split('\n').find((l) => l.startsWith('npm run edge:bootstrap'))
  if (!line) throw new Error(`no npm run edge:bootstrap line in:\n${block}`)
  return line
}
const bootstrap = (args: string) => shell.run(`npm run -s edge:bootstrap -- ${args}`)

/** An agent's poll counters from its /metrics: successful polls (200 and 304) and errors. */
/**
 * An agent's polls: `good` every pass of its loop that succeeded (a request answered, or an
 * interval passed with its held poll open: agents hold their polls by default), `errors` the
 * desired-state requests that failed.
 */
async function polls(port: number) {
  const e = parseExposition((await localGet(port, '/metrics')).text)
  const n = (code: string) => e.value('edgeplane_agent_polls_total', { code }) ?? 0
  const passes = (outcome: string) =>
    e.value('edgeplane_agent_poll_results_total', { outcome }) ?? 0
  return { good: passes('applied') + passes('unchanged'), errors: n('error') }
}
const agentPort = async (edge: string) => {
  const e = (await stack.readInfo()).edges.find((x) => x.name === edge)
  if (!e?.agentHealthPort) throw new Error(`no agent health port for ${edge} in stack.json`)
  return e.agentHealthPort
}

describe('registering an edge as the README says', () => {
  it(
    "runs the README's commands as written: tulip is registered and its agent polls",
    async () => {
      expect(block).toContain('--sync-target tulip')
      expect(block).not.toContain('center.example')
      const run = await shell.run(block)
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
      expect(run.stderr).toMatch(/^mailbox \S+$/m)
      expect((await stat(join(dir, 'tulip.yaml'))).mode & 0o777).toBe(0o600)
      const secret = await agentSecret(shell, 'tulip')
      expect(secret.center).toBe(stack.url)
      agent = await startAgentFromSecret(shell, 'tulip', tulip?.kubeconfig ?? '')
      const ready = `kubectl --context root:imw-1 get synctarget tulip -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}'`
      await eventually(async () => {
        expect(agent?.output()).toMatch(/"msg":"poll".*"ok":true/)
        expect(ok(await shell.run(ready))).toBe('True')
      }, WAIT)
    },
    TEST_MS
  )

  it(
    'refuses a re-run without --rotate, writing nothing, and the agents keep polling',
    async () => {
      const written = await readFile(join(dir, 'tulip.yaml'), 'utf8')
      const florinPort = await agentPort('florin')
      const before = await polls(florinPort)
      const again = await shell.run(bootstrapLine())
      expect(again.code, again.stderr).toBe(3)
      expect(again.stderr).toContain(
        'SyncTarget tulip in root:imw-1 already has an edge credential'
      )
      expect(again.stderr).toContain('--rotate')
      expect(await readFile(join(dir, 'tulip.yaml'), 'utf8')).toBe(written)
      // The README's earlier example, against florin, which npm start joined.
      const florin = await bootstrap(
        '--inventory root:imw-1 --sync-target florin --center-url https://center.example:8787 --out florin.yaml'
      )
      expect(florin.code, florin.stderr).toBe(3)
      await expect(stat(join(dir, 'florin.yaml'))).rejects.toThrow()
      const seen = agent?.output().length ?? 0
      await eventually(async () => {
        const now = await polls(florinPort)
        expect(now.good).toBeGreaterThanOrEqual(before.good + 2)
        expect(now.errors).toBe(before.errors)
        expect((await localGet(florinPort, '/readyz')).status).toBe(200)
      }, WAIT)
      // tulip holds its poll open meanwhile: an idle held agent logs nothing at info, and fails none.
      expect(agent?.output().slice(seen)).not.toContain('"msg":"poll failed"')
      expect(agent?.output()).not.toContain(TOKEN_REFUSED)
    },
    TEST_MS
  )

  it(
    "serves edgeplane_build_info and process series on the agents', the relay's and the hub's /metrics",
    async () => {
      const relayPort = (await stack.readInfo()).relay?.healthPort
      expect(relayPort).toBeGreaterThan(0)
      const texts = {
        agent: (await localGet(await agentPort('guilder'), '/metrics')).text,
        relay: (await localGet(relayPort ?? 0, '/metrics')).text,
        hub: await (await stack.api('/metrics')).text(),
      }
      for (const [who, text] of Object.entries(texts)) {
        const e = parseExposition(text)
        expect(e.value('edgeplane_build_info', { version: IMAGE_VERSION }), who).toBe(1)
        expect(e.value('process_start_time_seconds'), who).toBeGreaterThan(1_600_000_000)
        if (who !== 'hub') expect(e.value('process_cpu_seconds_total'), who).toBeGreaterThan(0)
        if (who !== 'hub') expect(e.value('process_resident_memory_bytes'), who).toBeGreaterThan(0)
        if (!promtool) continue
        const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
        expect(`${lint.stdout}${lint.stderr}`.trim(), who).toBe('')
      }
    },
    TEST_MS
  )

  it(
    'cuts off the agent of a rotated token, which says why, until the new Secret is in place',
    async () => {
      const rotated = await bootstrap(
        '--inventory root:imw-1 --sync-target tulip --rotate --out tulip-rotated.yaml'
      )
      expect(rotated.code, rotated.stderr).toBe(0)
      await eventually(async () => expect(agent?.output()).toContain(TOKEN_REFUSED), WAIT)
      ok(await shell.run('kubectl --context tulip apply -f tulip-rotated.yaml'))
      await agent?.refresh()
      const seen = agent?.output().length ?? 0
      await eventually(async () => {
        expect(agent?.output().slice(seen)).toMatch(/"msg":"poll".*"ok":true/)
      }, WAIT)
    },
    TEST_MS
  )

  it(
    'repairs at the next start an edge whose token was rotated or whose Secret names another center',
    async () => {
      await agent?.stop()
      await tulip?.stop()
      const florin = await bootstrap(
        '--inventory root:imw-1 --sync-target florin --rotate --out florin-rotated.yaml'
      )
      expect(florin.code, florin.stderr).toBe(0)
      const florinLog = join(
        (await stack.readInfo()).edges.find((e) => e.name === 'florin')?.dir ?? '',
        'agent.log'
      )
      await eventually(
        async () => expect(await readFile(florinLog, 'utf8')).toContain(TOKEN_REFUSED),
        WAIT
      )
      const guilder = await bootstrap(
        '--inventory root:imw-1 --sync-target guilder --rotate --center-url https://center.example:8787 --out guilder.yaml'
      )
      expect(guilder.code, guilder.stderr).toBe(0)
      ok(await shell.run('kubectl --context guilder apply -f guilder.yaml'))
      expect((await agentSecret(shell, 'guilder')).center).toBe('https://center.example:8787')

      await stack.stop()
      await stack.start()
      const out = stack.output()
      expect(out).toMatch(/joining the edge again.*"edge":"florin".*refuses its token/)
      expect(out).toMatch(
        /joining the edge again.*"edge":"guilder".*another center \(https:\/\/center\.example:8787/
      )
      expect((await agentSecret(shell, 'guilder')).center).toBe(stack.url)
      for (const edge of ['florin', 'guilder']) {
        const port = await agentPort(edge)
        await eventually(async () => {
          expect((await polls(port)).good).toBeGreaterThan(0)
          expect((await localGet(port, '/readyz')).status).toBe(200)
        }, WAIT)
      }
    },
    TEST_MS
  )
})
