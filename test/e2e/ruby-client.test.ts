/**
 * ruby-kubeclient (Debian's ruby-kubeclient, run with /usr/bin/ruby) against the real local stack,
 * used as its README shows (clients/ruby-client.rb): a bearer-token client over the stack's CA,
 * discovery, create/get/update/strategic, merge and JSON patch/delete of config maps and
 * namespaces, `watch_config_maps(namespace:)` through the legacy /api/v1/watch/... path, a
 * Workspace made with a /apis/tenancy.kcp.io client and an EdgePlacement in it with a
 * /apis/edge.kcp.io client on the workspace's /clusters/<path> URL, including its watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runClientScript, type ScriptRun } from './clients/client-script.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const NS = 'ruby-client'
const WS = 'rb-ws'
let stack: SharedStack
let run: ScriptRun

beforeAll(async () => {
  stack = await sharedStack()
  run = await runClientScript('/usr/bin/ruby', 'ruby-client.rb', [
    `${stack.url}/clusters/root`,
    stack.adminToken(),
    stack.info().caFile,
    NS,
    WS,
  ])
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

type Event = { type: string; name?: string; data?: Record<string, string>; env?: string }

describe('ruby-kubeclient on the core API', () => {
  it('runs to the end after discovering the config map methods', () => {
    expect(run.lines.at(-1)?.step, run.stderr).toBe('done')
    expect(run.step('discovery')).toMatchObject({ api_version: true, config_map_methods: true })
  })

  it('creates, patches and updates a namespace, creates a config map and refuses a duplicate', () => {
    expect(run.step('namespace.create')).toMatchObject({
      name: NS,
      kind: 'Namespace',
      phase: 'Active',
    })
    expect(run.step('namespace.update').labels).toMatchObject({ team: 'rb', tier: 'gold' })
    expect(run.step('configmap.create')).toMatchObject({
      name: 'cm1',
      kind: 'ConfigMap',
      data: { a: '1' },
    })
    expect(run.step('configmap.create-again').status).toBe(409)
  })

  it('gets, lists by label and answers 404 for a missing name', () => {
    const got = run.step('configmap.get')
    expect(got).toMatchObject({
      data: { a: '1' },
      labels: { app: 'rb' },
      listed: ['cm1'],
      missing: 404,
    })
    expect(Number(got.list_version)).toBeGreaterThan(0)
  })

  it('updates from the read object and from a fresh resource, refusing a stale one', () => {
    expect(run.step('configmap.update')).toMatchObject({
      data: { a: '2' },
      fresh_data: { a: '3' },
      stale_status: 409,
    })
  })

  it('patches with strategic merge, merge and JSON patch (a failed test is 422)', () => {
    expect(run.step('configmap.patch')).toEqual({
      step: 'configmap.patch',
      strategic: { a: '3', b: '2' },
      merged: { a: '3', c: '3' },
      json: { a: '4', c: '3' },
      failed_test_status: 422,
    })
  })

  it('deletes a config map and a namespace', () => {
    expect(run.step('configmap.delete')).toMatchObject({ kind: 'ConfigMap', after: 404 })
    expect(run.step('namespace.delete').after).toBe(404)
  })

  it('watches ADDED, MODIFIED and DELETED through the legacy watch path', () => {
    const events = run.step('watch').events as Event[]
    expect(
      events.map((e) => [e.type, e.name, e.data?.v]),
      JSON.stringify(events)
    ).toEqual([
      ['ADDED', 'watched', '1'],
      ['MODIFIED', 'watched', '2'],
      ['DELETED', 'watched', '2'],
    ])
  })
})

describe('ruby-kubeclient on kcp groups', () => {
  it('creates a Workspace that is Ready at its /clusters URL', () => {
    expect(run.step('workspace')).toMatchObject({
      phase: 'Ready',
      url: `${stack.url}/clusters/root:${WS}`,
    })
  })

  it('serves an EdgePlacement in the workspace, apart from root', () => {
    // Other files sharing the stack make EdgePlacements in root: none may be this one's.
    const inRoot = run.step('edgeplacement').in_root as string[]
    expect(inRoot.filter((n) => ['marker', 'rb-ep'].includes(n))).toEqual([])
    expect(run.step('edgeplacement')).toMatchObject({
      kind: 'EdgePlacement',
      generation: 1,
      read: 'prod',
      patched: {
        locationSelectors: [{ matchLabels: { env: 'edge' } }],
        namespaceSelector: { matchLabels: { app: 'rb' } },
      },
      patched_generation: 2,
      listed: ['marker', 'rb-ep'],
      after: 404,
    })
  })

  it("watches the EdgePlacement's ADDED, MODIFIED and DELETED", () => {
    const events = run.step('edgeplacement').events as Event[]
    expect(events.length, JSON.stringify(events)).toBeGreaterThanOrEqual(3)
    // The control plane may write the placement too: more MODIFIED events can come between.
    expect(events[0]).toEqual({ type: 'ADDED', name: 'rb-ep', env: 'prod' })
    expect(events.at(-1)).toMatchObject({ type: 'DELETED', name: 'rb-ep' })
    expect(events).toContainEqual({ type: 'MODIFIED', name: 'rb-ep', env: 'edge' })
    expect(events.slice(1, -1).every((e) => e.type === 'MODIFIED')).toBe(true)
  })
})
