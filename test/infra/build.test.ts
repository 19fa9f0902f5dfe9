/**
 * What `npm run build` ships for the images, run as the images run it: each Node bundle copied
 * alone into an empty folder (no node_modules, no sources, no package.json) and started with this
 * Node and only PATH in its environment. `--help` answers; the edge agent polls a real mailbox of
 * a real center (the hub over HTTP on dynalite), applies it to a real in-process edge API, reports
 * back (the SyncTarget's heartbeat moves) and serves /healthz, /readyz and /metrics; the relay
 * watches that hub, makes a new SyncTarget's mailbox through the hook and serves the same. Both
 * stop cleanly on SIGTERM.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NodeHub, startNodeHub } from '../../functions/node-server.ts'
import { bundleFile, NODE_BUNDLES } from '../../infra/node-bundles.ts'
import { AGENT_METRIC } from '../../lib/edge-agent/agent-metrics.ts'
import { bootstrapHub } from '../../lib/hub/bootstrap.ts'
import { createLogger } from '../../lib/log.ts'
import { CURSOR_NS } from '../../lib/relay/cursor.ts'
import { RELAY_METRIC } from '../../lib/relay/relay-metrics.ts'
import { createInventory, createSyncTarget, edgeToken } from '../functions/edge-api/edge-setup.ts'
import { createTestStore, type TestStore } from '../helpers/dynalite.ts'
import { parseExposition } from '../helpers/exposition.ts'
import { entry } from '../lib/edge-agent/center-fixture.ts'
import { cmRef, configMap, EDGE_TOKEN, type Edge, startEdge } from '../lib/edge-agent/fixture.ts'
import {
  BUILD_TIMEOUT_MS,
  copyAlone,
  eventually,
  type RunningBundle,
  removeMade,
  runBuild,
  startBundle,
} from './build-output.ts'

const sample = (text: string, name: string, labels?: Record<string, string>) =>
  parseExposition(text).value(name, labels)

const ADMIN = 'bundle-test-admin'
/** A real run: processes start, poll and scrape on a loaded 2-core machine. */
const RUN_TIMEOUT_MS = 90_000
const SYNC_TARGETS = '/clusters/root:imw/apis/edge.kcp.io/v1alpha1/synctargets'

let outdir: string
let buildOutput: string
let store: TestStore
let center: NodeHub
let edge: Edge
let config: string
const running: RunningBundle[] = []
/** The center's own log (debug and up), shown beside a bundle's output when a check fails. */
const centerLog: string[] = []

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${center.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

const bundleOf = (name: string) => {
  const b = NODE_BUNDLES.find((x) => x.name === name)
  if (!b) throw new Error(`no bundle ${name}`)
  return join(outdir, bundleFile(b))
}

/** Starts a bundle alone in an empty folder; resolves with it and its health server's base URL. */
async function start(name: string, args: string[], env: Record<string, string> = {}) {
  const b = startBundle(
    await copyAlone(bundleOf(name)),
    [...args, ...['--health-host', '127.0.0.1', '--health-port', '0']],
    env
  )
  running.push(b)
  const line = await b.logLine((l) => l.msg === 'health server listening')
  return { b, base: `http://127.0.0.1:${line.port}` }
}

const text = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, body: await res.text() }
}

beforeAll(async () => {
  ;({ outdir, output: buildOutput } = await runBuild())
  store = await createTestStore()
  center = await startNodeHub({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    log: createLogger({ level: 'debug', sink: (line) => centerLog.push(line) }),
  })
  await bootstrapHub(center.deps, { adminToken: ADMIN, baseUrl: center.url })
  await createInventory(call, 'imw')
  edge = await startEdge()
  config = await mkdtemp(join(tmpdir(), 'bundle-config-'))
}, BUILD_TIMEOUT_MS)

afterAll(async () => {
  for (const b of running) await b.stop()
  await edge?.close()
  await center?.close()
  await store?.close()
  await removeMade()
  if (config) await rm(config, { recursive: true, force: true })
})

describe('npm run build', () => {
  it('writes one file per program and reports its size', () => {
    for (const b of NODE_BUNDLES) expect(buildOutput).toContain(bundleFile(b))
  })

  it.each(NODE_BUNDLES.map((b) => b.name))('%s answers --help from an empty folder', async (n) => {
    const b = startBundle(await copyAlone(bundleOf(n)), ['--help'])
    expect(await b.exited()).toBe(0)
    expect(b.output()).toMatch(/^Usage: /)
    expect(b.output()).toContain('--health-port')
  })
})

describe('the edge agent bundle', () => {
  it(
    'polls a real mailbox, applies, reports, and serves health and metrics',
    async () => {
      const { mailbox, spaceId } = await createSyncTarget(call, 'imw', 'bundled')
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bundled' } }
      await center.deps.projections.writeManifest(spaceId, {
        desired: [
          entry('v1', 'namespaces', '', ns),
          entry('v1', 'configmaps', 'bundled', configMap('bundled', 'c', { from: 'center' })),
        ],
        expectedVersion: null,
        now: new Date(),
      })
      await writeFile(join(config, 'token'), await edgeToken({ store }, mailbox))
      const kubeconfig = {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'e', cluster: { server: edge.hub.url, 'insecure-skip-tls-verify': true } },
        ],
        users: [{ name: 'agent', user: { token: EDGE_TOKEN } }],
        contexts: [{ name: 'e', context: { cluster: 'e', user: 'agent' } }],
        'current-context': 'e',
      }
      await writeFile(join(config, 'kubeconfig'), JSON.stringify(kubeconfig))
      const { b, base } = await start('edge-agent', [
        ...['--center', center.url, '--mailbox', mailbox],
        ...['--token-file', join(config, 'token'), '--kubeconfig', join(config, 'kubeconfig')],
        ...['--state-dir', join(config, 'state'), '--poll-interval', '0.5'],
        // held polls, the default, ended after a second: a 304 comes soon
        ...['--hold-seconds', '1'],
      ])
      const cm = await eventually(
        'the ConfigMap at the edge',
        () => edge.get(cmRef('bundled', 'c')),
        b.output
      )
      expect(cm.data).toEqual({ from: 'center' })
      const st = await eventually(
        'the heartbeat',
        async () => {
          const r = await call('GET', `${SYNC_TARGETS}/bundled`)
          return r.body?.status?.lastSyncerHeartbeatTime ? r.body : undefined
        },
        b.output
      )
      expect(Date.parse(st.status.lastSyncerHeartbeatTime)).not.toBeNaN()
      const page = await eventually(
        'a 304 poll',
        async () => {
          const p = await text(`${base}/metrics`)
          return (sample(p.body, AGENT_METRIC.polls, { code: '304' }) ?? 0) > 0 ? p : undefined
        },
        b.output
      )
      expect(sample(page.body, AGENT_METRIC.polls, { code: '200' })).toBeGreaterThanOrEqual(1)
      expect(sample(page.body, AGENT_METRIC.reports, { result: 'sent' })).toBeGreaterThanOrEqual(1)
      expect(sample(page.body, AGENT_METRIC.applies, { outcome: 'created' })).toBe(2)
      expect(sample(page.body, AGENT_METRIC.owned)).toBe(2)
      expect(sample(page.body, AGENT_METRIC.lastSuccess)).toBeGreaterThan(0)
      expect(await text(`${base}/healthz`)).toEqual({ status: 200, body: 'ok\n' })
      expect(await text(`${base}/readyz`)).toEqual({ status: 200, body: 'ok\n' })
      expect(await b.stop()).toBe(0)
    },
    RUN_TIMEOUT_MS
  )
})

describe('the relay bundle', () => {
  it(
    'relays a new SyncTarget to the mailbox hook and serves health and metrics',
    async () => {
      await writeFile(join(config, 'admin-token'), ADMIN)
      const { b, base } = await start(
        'relay',
        [
          ...['--hub', center.url, '--token-file', join(config, 'admin-token')],
          ...['--ddb-endpoint', store.endpoint, '--table', store.tableName, '--delay-ms', '20'],
        ],
        // Debug lines name every key the hook deferred or failed, should the mailbox not come.
        { LOG_LEVEL: 'debug' }
      )
      const st = await call('POST', SYNC_TARGETS, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SyncTarget',
        metadata: { name: 'relayed' },
      })
      expect(st.status).toBe(201)
      const workspaces = '/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces'
      await eventually(
        'the mailbox made through the relay',
        async () => {
          const list = await call('GET', workspaces)
          const names: string[] = list.body.items.map(
            (w: { metadata: { name: string } }) => w.metadata.name
          )
          return names.some((n) => n.endsWith(`-mb-${st.body.metadata.uid}`)) ? true : undefined
        },
        () => `${b.output()}\ncenter log:\n${centerLog.slice(-40).join('\n')}`
      ).catch(async (e: Error) => {
        // What the relay counted (hook calls by outcome, events, watches) says where the key stopped.
        const metrics = await text(`${base}/metrics`).catch((err) => ({ body: String(err) }))
        throw new Error(`${e.message}\nrelay metrics:\n${metrics.body}`)
      })
      // The hook's call is counted once its answer was read, which may follow the Workspace.
      const calls = { step: 'mailbox', outcome: 'ok' }
      const page = await eventually('the hook call counted', async () => {
        const body = (await text(`${base}/metrics`)).body
        return sample(body, RELAY_METRIC.hookCalls, calls) === undefined ? undefined : body
      })
      expect(sample(page, RELAY_METRIC.hookCalls, calls)).toBeGreaterThanOrEqual(1)
      const events = { resource: 'synctargets.edge.kcp.io', type: 'ADDED' }
      expect(sample(page, RELAY_METRIC.events, events)).toBeGreaterThanOrEqual(1)
      expect(sample(page, RELAY_METRIC.watches)).toBeGreaterThan(0)
      expect(await text(`${base}/healthz`)).toEqual({ status: 200, body: 'ok\n' })
      expect(await text(`${base}/readyz`)).toEqual({ status: 200, body: 'ok\n' })
      expect(await b.stop()).toBe(0)
      expect(await store.kv.get(CURSOR_NS, '*/edge.kcp.io/synctargets')).toBeDefined()
    },
    RUN_TIMEOUT_MS
  )
})
