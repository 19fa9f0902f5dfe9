/**
 * How a placed workload is shown (issue 5), end to end through `npm start` with two simulated
 * edges (florin size=1, guilder size=2 extended=si) and real kubectl: objects customized per edge
 * from their Locations' labels reach each edge with its own values; a failed customization is a
 * Warning Event in the workload space and the placement's Translated condition, and heals once
 * the Customizer exists; a Summarizer's StatusSummary sums ready replicas per Location and follows
 * a scale at the source; a singleton Deployment gets its edge's status back and the executing
 * count says how many edges run each object; an EdgePlacement's status.summary counts its
 * copies per state. The workload is in helpers/translation-workload.ts; the tests run in order on
 * one stack. The overlap merge and the version choice are in translation-overlap.test.ts (two
 * workload spaces); copies shown "removing" until their edge confirms, in
 * translation-removal.test.ts (edge agents held).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'
import {
  MISSING_CUSTOMIZER,
  TRANSLATION_EDGES,
  translationWorkload,
} from './helpers/translation-workload.ts'

let stack: E2eStack
let edges: EdgeStack
const WAIT = 90_000
const ws = () => edges.at('wmw-t')

type Obj = KubeObject & {
  data?: Record<string, string>
  spec?: any
  status?: any
}

const onEdge = async (edge: string, kind: string, ns: string, name: string) =>
  (await edges.get(['--context', edge], kind, ns, name)) as Obj | undefined
const atCenter = async (kind: string, ns: string, name: string) =>
  (await edges.get(ws(), kind, ns, name)) as Obj | undefined
const placement = async (name: string) =>
  okJson<Obj>(await stack.kubectl([...ws(), 'get', 'edgeplacement', name, '-o', 'json']))
const scale = async (ns: string, replicas: number) =>
  ok(
    await stack.kubectl([...ws(), 'scale', 'deployment', 'web', '-n', ns, `--replicas=${replicas}`])
  )
const executingCount = (o: Obj | undefined) =>
  o?.metadata.annotations?.['kubestellar.io/executing-count']

beforeAll(async () => {
  stack = await startStack({ edges: TRANSLATION_EDGES })
  edges = edgeStack(stack)
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('wmw-t') }))
  ok(await stack.kubectl([...ws(), 'apply', '-f', '-'], { input: translationWorkload() }))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

describe('customization per edge', () => {
  it('gives each edge its own values from its Location, leaving the source as written', async () => {
    await eventually(async () => {
      for (const [edge, size] of [
        ['florin', 1],
        ['guilder', 2],
      ] as const) {
        const cm = await onEdge(edge, 'configmap', 'custom', 'settings')
        expect(cm?.data).toEqual({ env: 'prod', site: edge, banner: `100% ${edge}` })
        const d = await onEdge(edge, 'deployment', 'custom', 'web')
        expect(d?.spec.replicas).toBe(size)
        expect(d?.metadata.labels).toMatchObject({ tier: 'counted', site: edge })
        expect(d?.spec.template.spec.containers[0].env).toEqual([
          { name: 'SITE', value: `${edge} in prod` },
        ])
        expect(d?.status?.readyReplicas).toBe(size)
      }
    }, WAIT)
    const source = await atCenter('deployment', 'custom', 'web')
    expect(source?.spec.replicas).toBe(1)
    expect(source?.metadata.labels?.site).toBeUndefined()
    expect(source?.spec.template.spec.containers[0].env[0].value).toBe('%(loc-name) in %(env)')
    // %(extended) is defined by guilder's Location only: florin gets the object as written.
    expect((await onEdge('guilder', 'configmap', 'custom', 'special'))?.data).toEqual({
      extended: 'si',
    })
    expect((await onEdge('florin', 'configmap', 'custom', 'special'))?.data).toEqual({
      extended: '%(extended)',
    })
  })

  it('reports failed customizations as Warning Events and the Translated condition', async () => {
    await eventually(async () => {
      for (const edge of ['florin', 'guilder'])
        expect((await onEdge(edge, 'configmap', 'custom', 'broken'))?.data).toEqual({
          state: 'as-written',
        })
    }, WAIT)
    let events: Obj[] = []
    await eventually(async () => {
      events = okJson<{ items: Obj[] }>(
        await stack.kubectl([...ws(), 'get', 'events', '-n', 'custom', '-o', 'json'])
      ).items
      expect(events.map((e) => e.reason).sort()).toEqual([
        'CustomizerNotFound',
        'UndefinedParameter',
      ])
    }, WAIT)
    const notFound = events.find((e) => e.reason === 'CustomizerNotFound') as any
    expect(notFound).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'ConfigMap', namespace: 'custom', name: 'broken' },
    })
    expect(notFound.message).toMatch(
      /^ConfigMap custom\/broken: Customizer "custom\/missing" not found; sent uncustomized to 2 destinations: florin \(Location .*:florin\), guilder \(Location .*:guilder\)$/
    )
    const undef = events.find((e) => e.reason === 'UndefinedParameter') as any
    expect(undef.involvedObject).toMatchObject({ kind: 'ConfigMap', name: 'special' })
    expect(undef.message).toContain('parameter "extended" undefined')
    expect(undef.message).toMatch(/sent uncustomized to 1 destination: florin \(Location /)
    const printed = ok(await stack.kubectl([...ws(), 'get', 'events', '-n', 'custom']))
    expect(printed).toMatch(/Warning\s+CustomizerNotFound\s+configmap\/broken\s/)
    const translated = (await placement('custom')).status?.conditions?.find(
      (c: { type: string }) => c.type === 'Translated'
    )
    expect(translated).toMatchObject({ status: 'False', reason: 'CustomizationFailed' })
    expect(translated.message).toContain('ConfigMap custom/broken: Customizer "custom/missing"')
    expect(translated.message).toContain('ConfigMap custom/special: parameter "extended"')
  })

  it('customizes the object once the missing Customizer is created', async () => {
    ok(await stack.kubectl([...ws(), 'apply', '-f', '-'], { input: MISSING_CUSTOMIZER }))
    await eventually(async () => {
      for (const edge of ['florin', 'guilder'])
        expect((await onEdge(edge, 'configmap', 'custom', 'broken'))?.data).toEqual({
          state: 'customized',
        })
      const translated = (await placement('custom')).status?.conditions?.find(
        (c: { type: string }) => c.type === 'Translated'
      )
      expect(translated?.message).not.toContain('custom/broken')
      expect(translated?.message).toContain('ConfigMap custom/special')
    }, WAIT)
  })
})

describe('status back at the center', () => {
  const summary = async () =>
    okJson<{ summary?: any }>(
      await stack.kubectl([
        ...ws(),
        'get',
        'statussummary',
        'ready-by-site',
        '-n',
        'fleet',
        '-o',
        'json',
      ])
    ).summary
  const group = (site: string, count: number, ready: number) => ({
    groupedBy: [{ name: 'site', value: site }],
    count,
    aggregates: [
      { name: 'copies', value: count },
      { name: 'ready', value: ready },
    ],
  })

  it('sums ready replicas per Location in a StatusSummary, following a scale at the source', async () => {
    // florin runs custom/web (1) and fleet/web (2); guilder custom/web (2), fleet/web and solo/web (2 each).
    await eventually(async () => {
      expect(await summary()).toMatchObject({
        objects: 3,
        copies: 5,
        reported: 5,
        pending: 0,
        failed: 0,
        stale: 0,
        groups: [group('florin', 2, 3), group('guilder', 3, 6)],
      })
    }, WAIT)
    await scale('fleet', 4)
    await eventually(async () => {
      expect((await summary()).groups).toEqual([group('florin', 2, 5), group('guilder', 3, 8)])
    }, WAIT)
  })

  it('returns a singleton status to the workload object and counts where each object runs', async () => {
    expect(await edges.get(['--context', 'florin'], 'namespace', '', 'solo')).toBeUndefined()
    const returned = async (replicas: number) => {
      const solo = await atCenter('deployment', 'solo', 'web')
      expect(executingCount(solo)).toBe('1')
      expect(solo?.status).toMatchObject({
        replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        observedGeneration: solo?.metadata.generation,
      })
      return solo
    }
    const before = await eventuallyValue(() => returned(2))
    await scale('solo', 3)
    const after = await eventuallyValue(() => returned(3))
    expect(after?.metadata.generation).toBeGreaterThan(before?.metadata.generation ?? 0)
    await eventually(async () => {
      expect(executingCount(await atCenter('deployment', 'fleet', 'web'))).toBe('2')
      expect(executingCount(await atCenter('deployment', 'custom', 'web'))).toBe('2')
      expect(executingCount(await atCenter('configmap', 'custom', 'settings'))).toBe('2')
    }, WAIT)
  })

  it("shows per-object copy counts in each EdgePlacement's status.summary", async () => {
    const counts = (ready: number) => ({
      pending: 0,
      applied: 0,
      ready,
      failed: 0,
      removing: 0,
      stale: 0,
    })
    const object = (resource: string, namespace: string, name: string, ready: number) => ({
      group: resource === 'deployments' ? 'apps' : '',
      resource,
      namespace,
      name,
      ...counts(ready),
    })
    const summary = (destinations: number, objects: ReturnType<typeof object>[]) => ({
      destinations,
      reportingDestinations: destinations,
      staleDestinations: 0,
      objectCount: objects.length,
      objects,
      totals: counts(objects.reduce((n, o) => n + o.ready, 0)),
      brokenCount: 0,
      broken: [],
    })
    await eventually(async () => {
      expect((await placement('fleet')).status?.summary).toEqual(
        summary(2, [object('deployments', 'fleet', 'web', 2)])
      )
      expect((await placement('solo')).status?.summary).toEqual(
        summary(1, [object('deployments', 'solo', 'web', 1)])
      )
      // Customization problems are no copy problems: every copy of `custom` is ready.
      expect((await placement('custom')).status?.summary).toEqual(
        summary(2, [
          object('configmaps', 'custom', 'broken', 2),
          object('configmaps', 'custom', 'settings', 2),
          object('configmaps', 'custom', 'special', 2),
          object('deployments', 'custom', 'web', 2),
        ])
      )
    }, WAIT)
  })
})

/** Polls `read` until it resolves without failing an assertion; its last value. */
async function eventuallyValue<T>(read: () => Promise<T>): Promise<T> {
  let value: T | undefined
  await eventually(async () => {
    value = await read()
  }, WAIT)
  return value as T
}
