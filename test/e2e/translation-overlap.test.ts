/**
 * Overlapping workloads (issue 5, seed 003 "EdgePlacement objects"; issue 35) end to end through
 * `npm start` with two simulated edges (florin and guilder, both env=prod) and real kubectl. First
 * as the fresh stack's tenancy has it (the PlacementGrant `local`: no shared trust scope): two
 * tenants placing Secret mx/creds on the same edges are never merged — the edges keep tenant A's
 * copy, nothing of B's password in it, and each side gets a TrustScopeConflict Warning Event and a
 * False Translated condition naming neither the other's space nor its values. Then the
 * administrator gives `local` one trust scope (and the CRDs as a privileged resource): two spaces
 * sending an object of the same kind, namespace and name get one copy per edge, labels and data
 * merged key by key with the most recently updated source winning a conflict; each space lists a
 * Warning Event naming the other space and the fields, and both placements' Translated condition
 * is False (MergeConflict) until the sources agree. Then a CRD served at v1 in one space and at
 * v1+v2 in the other: objects of it reach the edge and the SyncerConfig at the version the outline
 * chooses, and the choice follows CRD changes as the outline says (the preferred-version union,
 * then the remembered choice); the CRDs themselves, placed too, are one merged object. The
 * workloads are in helpers/overlap-workload.ts, the version readers in
 * helpers/version-choice-view.ts; the tests run in order on one stack. "Most recently updated" is
 * the server's decision (compareRecency over the resourceVersion the translator first saw each
 * source's content at, its memory read from the stack's store, authored-order.ts), read while
 * waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AUTHORED_NS,
  type AuthoredItem,
  authoredContent,
  rememberedRv,
} from '../../functions/reconcile-translate/authored-order.ts'
import { compareRecency } from '../../functions/reconcile-translate/merge.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import {
  CRD_GROUP,
  CRD_NAME,
  crdVersionsPatch,
  sharedConfigMap,
  tenantSecret,
  widget,
  widgetCrd,
} from './helpers/overlap-workload.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'
import { openStackStore, type StoreAccess } from './helpers/store-access.ts'
import { versionView } from './helpers/version-choice-view.ts'

let stack: E2eStack
let edges: EdgeStack
let store: StoreAccess
const WAIT = 90_000
const EDGES = ['florin', 'guilder'] as const
const A = 'wmw-oa'
const B = 'wmw-ob'
/** Space ids by workspace name: Events and conditions name spaces by id. */
const ids: Record<string, string> = {}

type Obj = KubeObject & { data?: Record<string, string>; spec?: any; status?: any }

const kubectlIn = async (space: string, args: string[], input?: string) =>
  ok(await stack.kubectl([...edges.at(space), ...args], input === undefined ? {} : { input }))
/** A source object with its managedFields (the merge's notion of "most recent" reads them). */
const source = async (space: string, kind: string, name: string, ns = 'common') =>
  okJson<Obj>(
    await stack.kubectl([
      ...edges.at(space),
      'get',
      kind,
      name,
      ...(ns ? ['-n', ns] : []),
      '-o',
      'json',
      '--show-managed-fields',
    ])
  )
/** When the server counts a source as updated (its memory, else its resourceVersion). */
const authoredOf = async (space: string, o: Obj, group: string, resource: string) => {
  const ns = o.metadata.namespace ?? ''
  const key = `${ids[space]}/${group}/${resource}/${ns}/${o.metadata.name}`
  const item = await store.kv.get<AuthoredItem>(AUTHORED_NS, key)
  return rememberedRv(item?.value, o.metadata.uid ?? '', await authoredContent(o))
}
/** The newer of the two sources as the merge orders them (server-written values only). */
const newer = async (a: Obj, b: Obj, group: string, resource: string) => {
  const [ta, tb] = [
    await authoredOf(A, a, group, resource),
    await authoredOf(B, b, group, resource),
  ]
  const later = compareRecency(
    { id: ids[B] ?? '', object: b, authored: tb },
    { id: ids[A] ?? '', object: a, authored: ta }
  )
  return later > 0 ? B : A
}
const translated = async (space: string, placement: string) =>
  okJson<Obj>(
    await stack.kubectl([...edges.at(space), 'get', 'edgeplacement', placement, '-o', 'json'])
  ).status?.conditions?.find((c: { type: string }) => c.type === 'Translated')
/** Labels without the ones the translator and the agent add (`edge.kcp.io/...`). */
const ownLabels = (o: Obj | undefined) =>
  Object.fromEntries(
    Object.entries(o?.metadata.labels ?? {}).filter(([k]) => !k.startsWith('edge.kcp.io/'))
  )

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod' })
  edges = edgeStack(stack)
  store = openStackStore(stack.info())
  for (const ws of [A, B]) {
    ok(await stack.kubectl(['create', '-f', '-'], { input: workspace(ws) }))
    ids[ws] = okJson<{ spec: { cluster: string } }>(
      await stack.kubectl(['get', 'workspace', ws, '-o', 'json'])
    ).spec.cluster
  }
}, 180_000)
afterAll(async () => {
  store?.close()
  await stack?.destroy()
})

describe('one identity from two tenants of no shared trust scope (the fresh stack)', () => {
  const secretAt = async (context: string[]) =>
    (await edges.get(context, 'secret', 'mx', 'creds')) as Obj | undefined
  const decoded = (o: Obj | undefined) =>
    Object.fromEntries(Object.entries(o?.data ?? {}).map(([k, v]) => [k, atob(v)]))

  it("keeps the edges' copy as tenant A's: B's password never reaches it", async () => {
    await kubectlIn(A, ['create', '-f', '-'], tenantSecret({ user: 'a-user' }))
    await eventually(async () => {
      for (const edge of EDGES)
        expect(decoded(await secretAt(['--context', edge]))).toEqual({ user: 'a-user' })
    }, WAIT)
    await kubectlIn(B, ['create', '-f', '-'], tenantSecret({ user: 'b-user', password: 'b-pw' }))
    for (const space of [A, B])
      await eventually(async () => {
        expect(await translated(space, 'tenant')).toMatchObject({
          status: 'False',
          reason: 'TrustScopeConflict',
        })
      }, WAIT)
    for (const edge of EDGES)
      expect(decoded(await secretAt(['--context', edge]))).toEqual({ user: 'a-user' })
  })

  it('tells each side with a Warning Event, without the other side’s space or values', async () => {
    for (const [space, other] of [
      [A, B],
      [B, A],
    ] as const) {
      const events = okJson<{ items: Obj[] }>(
        await stack.kubectl([...edges.at(space), 'get', 'events', '-n', 'mx', '-o', 'json'])
      ).items.filter((e) => e.reason === 'TrustScopeConflict')
      expect(events).toHaveLength(1)
      const event = events[0] as any
      expect(event).toMatchObject({
        type: 'Warning',
        involvedObject: { kind: 'Secret', namespace: 'mx', name: 'creds' },
      })
      expect(event.message).toContain('secrets mx/creds is also placed from another trust scope')
      const condition = await translated(space, 'tenant')
      for (const text of [event.message, condition.message])
        for (const hidden of [ids[other] as string, 'password', 'b-pw', 'a-user', 'b-user'])
          expect(text).not.toContain(hidden)
    }
  })

  it('gives the spaces one trust scope (and the CRDs) for the tests below, as an administrator', async () => {
    const scope = {
      spec: {
        trustScope: 'e2e-overlap',
        resources: [{ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }],
      },
    }
    const patch = [
      'patch',
      'placementgrant',
      'local',
      '--type',
      'merge',
      '-p',
      JSON.stringify(scope),
    ]
    ok(await stack.kubectl(patch))
  })
})

describe('one object sent from two workload spaces', () => {
  it('reaches each edge as one copy merged key by key, the newest source winning', async () => {
    await kubectlIn(
      A,
      ['create', '-f', '-'],
      sharedConfigMap({ team: 'a', tier: 'web' }, { color: 'red', onlyA: 'x' })
    )
    await kubectlIn(
      B,
      ['create', '-f', '-'],
      sharedConfigMap({ team: 'b', zone: 'east' }, { color: 'blue', onlyB: 'y' })
    )
    await eventually(async () => {
      const [a, b] = [
        await source(A, 'configmap', 'shared'),
        await source(B, 'configmap', 'shared'),
      ]
      const newest = (await newer(a, b, '', 'configmaps')) === B ? b : a
      for (const edge of EDGES) {
        const copies = okJson<{ items: Obj[] }>(
          await stack.kubectl(['--context', edge, 'get', 'cm', '-n', 'common', '-o', 'json'])
        ).items.filter((c) => c.metadata.name === 'shared')
        expect(copies).toHaveLength(1)
        expect(copies[0]?.data).toEqual({
          color: newest.data?.color,
          onlyA: 'x',
          onlyB: 'y',
        })
        expect(ownLabels(copies[0])).toEqual({
          team: newest.metadata.labels?.team,
          tier: 'web',
          zone: 'east',
        })
      }
    }, WAIT)
  })

  it('lists a MergeConflict Warning Event in each space naming the other space and the fields', async () => {
    for (const [space, other] of [
      [A, B],
      [B, A],
    ] as const) {
      let events: Obj[] = []
      await eventually(async () => {
        events = okJson<{ items: Obj[] }>(
          await stack.kubectl([...edges.at(space), 'get', 'events', '-n', 'common', '-o', 'json'])
        ).items.filter((e) => e.reason === 'MergeConflict')
        expect(events).toHaveLength(1)
        expect(events[0]?.message).toMatch(/to 2 destinations: florin .*, guilder /)
      }, WAIT)
      const event = events[0] as any
      expect(event).toMatchObject({
        type: 'Warning',
        involvedObject: { kind: 'ConfigMap', namespace: 'common', name: 'shared' },
      })
      expect(event.message).toContain(
        `configmaps common/shared is also sent from space(s) ${ids[other]} to`
      )
      expect(event.message).toContain('disagree on data[color], metadata.labels[team],')
      for (const distinct of ['onlyA', 'onlyB', 'tier', 'zone', ids[space] as string])
        expect(event.message).not.toContain(distinct)
      const printed = await kubectlIn(space, ['get', 'events', '-n', 'common'])
      expect(printed).toMatch(/Warning\s+MergeConflict\s+configmap\/shared\s/)
      const condition = await translated(space, 'overlap')
      expect(condition).toMatchObject({ status: 'False', reason: 'MergeConflict' })
      expect(condition.message).toContain('configmaps common/shared')
    }
  })

  it('turns the Translated condition True once the sources agree', async () => {
    const agree = JSON.stringify({ metadata: { labels: { team: 'a' } }, data: { color: 'red' } })
    await kubectlIn(B, [
      'patch',
      'configmap',
      'shared',
      '-n',
      'common',
      '--type',
      'merge',
      '-p',
      agree,
    ])
    await eventually(async () => {
      for (const space of [A, B])
        expect(await translated(space, 'overlap')).toMatchObject({ status: 'True' })
      for (const edge of EDGES) {
        const copy = (await edges.get(['--context', edge], 'cm', 'common', 'shared')) as Obj
        expect(copy.data).toEqual({ color: 'red', onlyA: 'x', onlyB: 'y' })
        expect(ownLabels(copy)).toEqual({ team: 'a', tier: 'web', zone: 'east' })
      }
    }, WAIT)
  })
})

describe('a CRD served at different versions in the two spaces', () => {
  const view = () => versionView(stack, edges)
  const patchCrd = (space: string, versions: string[], storage: string) =>
    kubectlIn(space, [
      'patch',
      'crd',
      CRD_NAME,
      '--type',
      'merge',
      '-p',
      crdVersionsPatch(versions, storage),
    ])
  /** Waits until every edge has the newest source CRD's served versions (the merged CRD). */
  const newestCrdAtEdges = async () => {
    await eventually(async () => {
      const [a, b] = [await source(A, 'crd', CRD_NAME, ''), await source(B, 'crd', CRD_NAME, '')]
      const newest = await newer(a, b, 'apiextensions.k8s.io', 'customresourcedefinitions')
      const want = await view().served(edges.at(newest))
      for (const edge of EDGES) expect(await view().served(['--context', edge])).toEqual(want)
    }, WAIT)
  }
  const expectChosen = async (version: string) => {
    await eventually(async () => {
      for (const edge of EDGES) {
        expect(await view().chosen(edge)).toEqual({
          inConfig: [`widgets@${version}`],
          clusterScope: expect.arrayContaining([`customresourcedefinitions:${CRD_NAME}`]),
          told: [`w-a@${version}`, `w-b@${version}`],
          memory: expect.objectContaining({ [CRD_GROUP]: version }),
        })
        expect(await view().listedAt(edge, version)).toEqual([
          ['w-a', `${CRD_GROUP}/${version}`],
          ['w-b', `${CRD_GROUP}/${version}`],
        ])
      }
    }, WAIT)
  }

  it("sends both spaces' objects at the one version both serve (v1), to the edge and the SyncerConfig", async () => {
    await kubectlIn(A, ['create', '-f', '-'], widgetCrd(['v1'], 'v1'))
    await kubectlIn(B, ['create', '-f', '-'], widgetCrd(['v1', 'v2'], 'v2'))
    await kubectlIn(A, ['create', '-f', '-'], widget('w-a', 'v1'))
    await kubectlIn(B, ['create', '-f', '-'], widget('w-b', 'v2'))
    await expectChosen('v1')
    // The CRDs themselves are one object from two spaces that disagree: merged, the newest wins.
    await newestCrdAtEdges()
    for (const space of [A, B]) {
      const condition = await translated(space, 'crds')
      expect(condition).toMatchObject({ status: 'False', reason: 'MergeConflict' })
      expect(condition.message).toContain(
        `customresourcedefinitions.apiextensions.k8s.io ${CRD_NAME} is also sent from`
      )
      expect(condition.message).toMatch(/disagree on [^;]*\bspec\b/)
    }
  })

  it('moves to v2 once the first space serves it too: the preferred versions meet at v2 alone', async () => {
    // A serves v1+v2 (preferred v2), B v1+v2 (preferred v2): the intersection {v1, v2} narrowed by
    // the preferred union {v2} leaves v2 as the only candidate, so the remembered v1 is dropped.
    await patchCrd(A, ['v1', 'v2'], 'v1')
    await expectChosen('v2')
  })

  it('sticks with v2 when the candidates grow to v1..v3 and the preferred versions no longer meet them', async () => {
    // B first: A {v1,v2} (preferred v2), B {v1..v4} (preferred v4) → candidates {v2}: still v2.
    // Then A: {v1,v2,v3,v5} (preferred v5) → intersection {v1,v2,v3}, preferred {v4,v5} outside
    // it, so every common version is a candidate; a fresh choice would be v3, the memory keeps v2.
    await patchCrd(B, ['v1', 'v2', 'v3', 'v4'], 'v2')
    await patchCrd(A, ['v1', 'v2', 'v3', 'v5'], 'v1')
    await newestCrdAtEdges()
    await expectChosen('v2')
  })
})
