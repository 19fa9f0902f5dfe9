/**
 * The official Kubernetes Python client (Debian's python3-kubernetes, run with /usr/bin/python3)
 * against the real local stack, used as its documentation shows (clients/python-client.py):
 * CoreV1Api with typed models (creates without apiVersion/kind), create/read/list/replace/
 * strategic and JSON patch/delete, `watch.Watch().stream` seeing ADDED, MODIFIED and DELETED, the
 * DynamicClient for a ConfigMap (merge patch), a Workspace and an EdgePlacement in that workspace
 * through its /clusters/<path> URL (with its watch), and AppsV1Api for a Deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runClientScript, type ScriptRun } from './clients/client-script.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const NS = 'python-client'
const WS = 'py-ws'
let stack: SharedStack
let run: ScriptRun

beforeAll(async () => {
  stack = await sharedStack()
  run = await runClientScript('/usr/bin/python3', 'python-client.py', [stack.kubeconfig, NS, WS])
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

type Event = { type: string; name?: string; data?: Record<string, string>; kind?: string }
type PlacementEvent = { type: string; name?: string; selectors?: unknown }

describe('python client, typed CoreV1Api', () => {
  it('runs to the end', () => {
    expect(run.lines.at(-1)?.step, run.stderr).toBe('done')
  })

  it('creates a namespace from a typed model without apiVersion/kind', () => {
    expect(run.step('namespace.create')).toMatchObject({
      name: NS,
      api_version: 'v1',
      kind: 'Namespace',
      phase: 'Active',
    })
    expect(run.step('namespace.create').uid).toBeTruthy()
    expect(run.step('namespace.patch').labels).toMatchObject({ team: 'py' })
  })

  it('creates, refuses a duplicate, reads and lists a config map', () => {
    expect(run.step('configmap.create')).toMatchObject({
      name: 'cm1',
      namespace: NS,
      api_version: 'v1',
      kind: 'ConfigMap',
      data: { a: '1' },
    })
    expect(run.step('configmap.create-again').status).toBe(409)
    expect(run.step('configmap.read')).toMatchObject({ data: { a: '1' }, labels: { app: 'py' } })
    expect(run.step('configmap.list').names).toEqual(['cm1'])
  })

  it('replaces with the read object and with a fresh model, refusing a stale resourceVersion', () => {
    expect(run.step('configmap.replace')).toMatchObject({
      data: { a: '2' },
      fresh_data: { a: '3' },
      stale_status: 409,
      rv_grew: true,
    })
  })

  it('patches with a strategic merge (dict) and a JSON patch (list), then deletes', () => {
    expect(run.step('configmap.patch-strategic').data).toEqual({ a: '3', b: '2' })
    expect(run.step('configmap.patch-json').data).toEqual({ a: '4', b: '2' })
    expect(run.step('configmap.delete').read_status).toBe(404)
  })

  it('watches ADDED, MODIFIED and DELETED with watch.Watch().stream', () => {
    const w = run.step('watch')
    expect(w.finished).toBe(true)
    const events = w.events as Event[]
    expect(
      events.map((e) => [e.type, e.name, e.data?.v]),
      JSON.stringify(events)
    ).toEqual([
      ['ADDED', 'watched', '1'],
      ['MODIFIED', 'watched', '2'],
      ['DELETED', 'watched', '2'],
    ])
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['V1ConfigMap']))
  })

  it('deletes the namespace', () => {
    expect(run.step('namespace.delete').read_status).toBe(404)
  })
})

describe('python client, AppsV1Api', () => {
  it('creates a typed Deployment, patches its containers by name and scales it', () => {
    expect(run.step('deployment')).toMatchObject({
      kind: 'Deployment',
      replicas: 2,
      containers: [
        ['web', 'nginx:1.27'],
        ['side', 'busybox:1.36'],
      ],
      scale_kind: 'Scale',
      replicas_after_scale: 3,
      after_delete: 404,
    })
  })
})

describe('python client, DynamicClient', () => {
  it('creates, merge-patches, reads, lists, applies and deletes a ConfigMap', () => {
    const cm = run.step('dynamic.configmap')
    expect(cm).toMatchObject({
      created: 'dyn',
      merged: { x: '1', y: '2' },
      read: { x: '1', y: '2' },
      listed: ['dyn', 'marker'],
      applied: { x: '1', y: '2', z: '3' },
      after_delete: 404,
    })
    expect(cm.apply_managers).toContain('py-apply')
  })

  it('creates a Workspace that is Ready at its /clusters URL', () => {
    expect(run.step('dynamic.workspace')).toMatchObject({
      phase: 'Ready',
      url: `${stack.url}/clusters/root:${WS}`,
    })
  })

  it('serves an EdgePlacement in the workspace, apart from root', () => {
    // Other files sharing the stack make EdgePlacements in root: none may be this one's.
    const inRoot = run.step('dynamic.edgeplacement').in_root as string[]
    expect(inRoot.filter((n) => ['marker', 'py-ep'].includes(n))).toEqual([])
    const ep = run.step('dynamic.edgeplacement')
    expect(ep).toMatchObject({
      host: `${stack.url}/clusters/root:${WS}`,
      generation: 1,
      read: 'prod',
      patched: {
        locationSelectors: [{ matchLabels: { env: 'edge' } }],
        namespaceSelector: { matchLabels: { app: 'py' } },
      },
      patched_generation: 2,
      listed: ['marker', 'py-ep'],
      after_delete: 404,
      finished: true,
    })
  })

  it("watches the EdgePlacement's ADDED, MODIFIED and DELETED", () => {
    const events = run.step('dynamic.edgeplacement').events as PlacementEvent[]
    expect(
      events.every((e) => e.name === 'py-ep'),
      JSON.stringify(events)
    ).toBe(true)
    // The control plane may write the placement too: more MODIFIED events can come between.
    expect(events[0]).toEqual({
      type: 'ADDED',
      name: 'py-ep',
      selectors: [{ matchLabels: { env: 'prod' } }],
    })
    expect(events.at(-1)?.type).toBe('DELETED')
    expect(events).toContainEqual({
      type: 'MODIFIED',
      name: 'py-ep',
      selectors: [{ matchLabels: { env: 'edge' } }],
    })
    expect(events.slice(1, -1).every((e) => e.type === 'MODIFIED')).toBe(true)
  })
})
