/**
 * The relay's translate wiring against a real in-process hub, its hook calls captured (answered
 * ok without running the steps, so nothing else writes): only the core watches run until a slice
 * names a destination; then every selectable resource is watched and a workload object wakes the
 * slice's mailbox; a CRD in that space gets a watch of its own there; deleting the slice wakes
 * the mailbox once more, and the extra watches stop after lingering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NodeHub, startNodeHub } from '../../../functions/node-server.ts'
import { startRelay } from '../../../infra/relay/relay.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { CORE_TARGETS, targetPath } from '../../../lib/relay/watch-targets.ts'
import type { FetchFn } from '../../../lib/remote/node-transport.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const TOKEN = 'relay-watches-admin'
const UID = '0a1b2c3d-1111-2222-3333-000000000001'
let store: TestStore
let hub: NodeHub
const log = createLogger({ level: 'error' })

beforeAll(async () => {
  store = await createTestStore()
  hub = await startNodeHub({ objects: store.objects, kv: store.kv, log: silentLogger })
  await bootstrapHub(hub.deps, { adminToken: TOKEN, baseUrl: hub.url })
})
afterAll(async () => {
  await hub?.close()
  await store?.close()
})

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

async function eventually(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not before the deadline: ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

type Hook = { step: string; keys: string[] }

/** Passes hub requests through; answers hook calls itself, every key ok. */
function recorder(): { fetch: FetchFn; hooks: Hook[] } {
  const hooks: Hook[] = []
  const f: FetchFn = async (input, init) => {
    const url = input
    const step = url.split('/hooks/')[1]
    if (step === undefined) return fetch(input, init)
    const keys = (JSON.parse(String(init?.body)) as { keys: string[] }).keys
    hooks.push({ step, keys })
    const results = keys.map((key) => ({ key, ok: true, outcome: 'recorded' }))
    return new Response(JSON.stringify({ step, results }), { status: 200 })
  }
  return { fetch: f, hooks }
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
}

describe('relay watches for the translate step', () => {
  it('follows slices: extra watches, translate keys for workload objects and CRD objects', async () => {
    const rec = recorder()
    const relay = await startRelay({
      hubUrl: hub.url,
      token: TOKEN,
      kv: store.kv,
      log,
      delayMs: 10,
      lingerMs: 200,
      fetch: rec.fetch,
    })
    const mailbox = `inv1-mb-${UID}`
    let mark = 0
    const wokenSinceMark = () =>
      rec.hooks.slice(mark).some((h) => h.step === 'translate' && h.keys.includes(mailbox))
    const watches = () => relay.watches().sort()
    try {
      const core = CORE_TARGETS.map(targetPath).sort()
      expect(watches()).toEqual(core)
      const ws = await call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
        apiVersion: 'tenancy.kcp.io/v1alpha1',
        kind: 'Workspace',
        metadata: { name: 'wl' },
      })
      const wlId = (ws.spec as { cluster: string }).cluster
      const wl = '/clusters/root:wl'

      mark = rec.hooks.length
      await call('POST', `${wl}/apis/edge.kcp.io/v1alpha1/singleplacementslices`, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SinglePlacementSlice',
        metadata: { name: 'p1' },
        destinations: [
          { cluster: 'inv1', locationName: 'loc', syncTargetName: 'e1', syncTargetUID: UID },
        ],
      })
      await eventually(wokenSinceMark, 'translate key for the new slice')
      await eventually(
        () => watches().includes('/clusters/*/api/v1/configmaps'),
        'the configmaps watch'
      )
      expect(watches()).not.toContain('/clusters/*/api/v1/events')

      mark = rec.hooks.length
      await call('POST', `${wl}/api/v1/namespaces`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'apps' },
      })
      await call('POST', `${wl}/api/v1/namespaces/apps/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cfg' },
        data: { a: '1' },
      })
      await eventually(wokenSinceMark, 'translate key for a ConfigMap in the slice space')

      await call('POST', `${wl}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd)
      const widgets = `/clusters/${wlId}/apis/example.com/v1/widgets`
      await eventually(() => watches().includes(widgets), 'the per-space widgets watch')
      // Why per space: the cross-space view serves root's registry, which lacks the CRD.
      const crossSpace = await fetch(`${hub.url}/clusters/*/apis/example.com/v1/widgets`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(crossSpace.status).toBe(404)
      mark = rec.hooks.length
      await call('POST', `${wl}/apis/example.com/v1/namespaces/apps/widgets`, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
      })
      await eventually(wokenSinceMark, 'translate key for a Widget')

      mark = rec.hooks.length
      await call('DELETE', `${wl}/apis/edge.kcp.io/v1alpha1/singleplacementslices/p1`)
      await eventually(wokenSinceMark, 'translate key for the deleted slice')
      await eventually(() => watches().join() === core.join(), 'only the core watches again')
    } finally {
      await relay.stop()
    }
  })

  it("a space's first slice translates its mailbox once, beside the objects the new watches list", async () => {
    // The configmaps list of the watch the slice starts is held until a ConfigMap newer than the
    // slice exists: its replay must go out in the same flush as the slice's own key.
    let listAsked = () => {}
    const asked = new Promise<void>((r) => (listAsked = r))
    let openGate = () => {}
    const gate = new Promise<void>((r) => (openGate = r))
    const rec = recorder()
    const gated: FetchFn = async (input, init) => {
      if (input.includes('/clusters/*/api/v1/configmaps?') && !input.includes('watch=')) {
        listAsked()
        await gate
      }
      return rec.fetch(input, init)
    }
    const cursors = await createTestStore()
    const mailbox = `inv1-mb-${UID.replace(/1$/, '2')}`
    await call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'first' },
    })
    const wl = '/clusters/root:first'
    const configMap = (name: string) =>
      call('POST', `${wl}/api/v1/namespaces/default/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name },
        data: { a: '1' },
      })
    await configMap('older')
    const relay = await startRelay({
      hubUrl: hub.url,
      token: TOKEN,
      kv: cursors.kv,
      log,
      delayMs: 10,
      // The hold lasts while the gate does (its 5 s bound, on a busy machine, would end it first).
      positionWaitMs: 600_000,
      fetch: gated,
    })
    const flushes = () =>
      rec.hooks.filter((h) => h.step === 'translate' && h.keys.includes(mailbox)).length
    try {
      await call('POST', `${wl}/apis/edge.kcp.io/v1alpha1/singleplacementslices`, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SinglePlacementSlice',
        metadata: { name: 'p1' },
        destinations: [
          {
            cluster: 'inv1',
            locationName: 'loc',
            syncTargetName: 'e2',
            syncTargetUID: mailbox.slice(8),
          },
        ],
      })
      await asked
      await configMap('newer')
      // Nothing flushed yet: the slice's key waits for the new watches (a flush wrongly let go
      // would start within delayMs; 200 ms gives it twenty times that).
      await new Promise((r) => setTimeout(r, 200))
      expect(flushes()).toBe(0)
      openGate()
      await eventually(() => flushes() > 0, 'the mailbox translated')
      await eventually(
        () => relay.watches().includes('/clusters/*/api/v1/configmaps'),
        'the configmaps watch'
      )
      // No second flush of the mailbox follows (one would be due within delayMs of the first).
      await new Promise((r) => setTimeout(r, 500))
      expect(flushes()).toBe(1)
    } finally {
      openGate()
      await relay.stop()
      await cursors.close()
    }
  })
})
