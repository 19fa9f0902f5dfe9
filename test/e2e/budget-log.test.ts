/**
 * A write and its change record are one outcome (issue 39), end to end through `npm start`, whose
 * Worker runs its invocations under the strict budget (wrangler.toml: a subrequest past 1,000 is
 * refused): 600 ConfigMaps placed on two simulated edges (the summarize step's runs over them used
 * to overrun and leave objects without a change-log entry), then one DELETE of the whole
 * collection (refused with 429 part-way, every deleted object logged; the client's retry finishes
 * it; the copies then leave the edges and the sources go). Afterwards no invocation overran while
 * writing (the Worker's log), and `npm run store-check`
 * over the stopped stack's data folder finds every object's last change in the log.
 */
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../infra/repo-root.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const COUNT = 600
const NS = 'bulk'
let stack: E2eStack

const objects = () =>
  [
    `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${NS}, labels: {app: bulk}}`,
    ...Array.from(
      { length: COUNT },
      (_, i) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}, namespace: ${NS}}\ndata: {n: "${i}"}`
    ),
    `apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: bulk}
spec:
  locationSelectors: [{matchLabels: {env: prod}}]
  namespaceSelector: {matchLabels: {app: bulk}}`,
  ].join('\n---\n')

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod' })
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('bulk') }))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

const ws = () => ['--server', `${stack.url}/clusters/root:bulk`]
const edgeCount = async (edge: string) => {
  const r = await stack.kubectl(['--context', edge, 'get', 'configmaps', '-n', NS, '-o', 'name'])
  return r.code === 0 ? r.stdout.split('\n').filter((l) => l.includes('cm-')).length : 0
}

describe('budgets never cut a write from its change record, through npm start', () => {
  it('places 600 ConfigMaps on two edges, deletes the collection, and the log holds every change', async () => {
    ok(await stack.kubectl([...ws(), 'apply', '-f', '-'], { input: objects(), timeoutMs: 300_000 }))
    await eventually(async () => {
      expect(await edgeCount('florin')).toBe(COUNT)
      expect(await edgeCount('guilder')).toBe(COUNT)
    }, 360_000)

    // One DELETE of the collection; a 429 (the invocation's budget) is sent again, as client-go
    // does after Retry-After.
    const path = `/clusters/root:bulk/api/v1/namespaces/${NS}/configmaps`
    let refusals = 0
    for (let attempt = 0; ; attempt++) {
      const r = await stack.api(path, { method: 'DELETE', timeoutMs: 120_000 })
      const body = (await r.json()) as { kind?: string; reason?: string }
      if (r.status === 200) break
      expect({ status: r.status, kind: body.kind, reason: body.reason }).toEqual({
        status: 429,
        kind: 'Status',
        reason: 'TooManyRequests',
      })
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/)
      refusals++
      expect(attempt).toBeLessThan(100)
    }
    // Placed objects wait for their edges to remove them (the edge-removal finalizer), then go.
    await eventually(async () => {
      const left = await stack.kubectl([...ws(), 'get', 'configmaps', '-n', NS, '-o', 'name'])
      expect(
        ok(left)
          .split('\n')
          .filter((l) => l.includes('cm-'))
      ).toEqual([])
    }, 360_000)
    expect(refusals).toBeGreaterThan(0) // 600 deletes do not fit one invocation

    // No overrun was sent by a write (its change-log entry at risk); the Worker logs the first
    // overrun of an invocation and the first a write sent, saying which.
    const log = await readFile(stack.info().wrangler.logFile, 'utf8')
    const overruns = log.split('\n').filter((l) => l.includes('subrequest budget exceeded'))
    expect(overruns.filter((l) => !l.includes('"inWrite":'))).toEqual([])
    expect(overruns.filter((l) => l.includes('"inWrite":true'))).toEqual([])

    expect(await stack.stop()).toBe(0)
    const check = spawnSync(
      process.execPath,
      [
        '--experimental-strip-types',
        'infra/store-check/main.ts',
        '--data',
        stack.dataDir,
        '--json',
      ],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 }
    )
    expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0)
  }, 1_200_000)
})
