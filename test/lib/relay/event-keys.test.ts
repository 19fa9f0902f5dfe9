import { describe, expect, it } from 'vitest'
import { MAILBOX_STEP as WORKER_MAILBOX_STEP } from '../../../functions/reconcile-mailbox/controller.ts'
import { mailboxOf as workerMailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { TRANSLATE_STEP as WORKER_TRANSLATE_STEP } from '../../../functions/reconcile-translate/controller.ts'
import { WHERE_STEP as WORKER_WHERE_STEP } from '../../../functions/reconcile-where/controller.ts'
import { whereKeyOf as workerWhereKeyOf } from '../../../functions/reconcile-where/names.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  type EventKeysDeps,
  isMailboxName,
  keysForEvent,
  keysForRelist,
  MAILBOX_STEP,
  mailboxOf,
  type ResourceRef,
  TRANSLATE_STEP,
  WHERE_STEP,
  whereKeyOf,
} from '../../../lib/relay/event-keys.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'

const UID = '0a1b2c3d-1111-2222-3333-444455556666'
const uid = (n: number) => `0a1b2c3d-1111-2222-3333-00000000000${n}`
const mb = (n: number) => `inv1-mb-${uid(n)}`

const EDGE = 'edge.kcp.io'
const ref = (group: string, resource: string): ResourceRef => ({ group, resource })
const SYNCTARGETS = ref(EDGE, 'synctargets')
const LOCATIONS = ref(EDGE, 'locations')
const PLACEMENTS = ref(EDGE, 'edgeplacements')
const SLICES = ref(EDGE, 'singleplacementslices')
const WORKSPACES = ref('tenancy.kcp.io', 'workspaces')
const CONFIGMAPS = ref('', 'configmaps')
const NAMESPACES = ref('', 'namespaces')
const DEPLOYMENTS = ref('apps', 'deployments')
const CRDS = ref('apiextensions.k8s.io', 'customresourcedefinitions')

function obj(kind: string, name: string, cluster?: string, uid?: string): KubeObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind,
    metadata: {
      name,
      ...(uid ? { uid } : {}),
      ...(cluster ? { annotations: { 'kcp.io/cluster': cluster } } : {}),
    },
  }
}

function slice(name: string, cluster: string, mailboxes: number[]): KubeObject {
  return {
    ...obj('SinglePlacementSlice', name, cluster),
    destinations: mailboxes.map((n) => ({
      cluster: 'inv1',
      locationName: 'loc',
      syncTargetName: `st${n}`,
      syncTargetUID: uid(n),
    })),
  }
}

function deps(placements: KubeObject[] = []): EventKeysDeps & { listed: number } {
  const d = {
    espwSpaceId: 'espw1',
    listed: 0,
    index: createSliceIndex(),
    listEdgePlacements: async () => {
      d.listed += 1
      return placements
    },
  }
  return d
}

const placements = [
  obj('EdgePlacement', 'p2', 'ws1'),
  obj('EdgePlacement', 'p1', 'ws1'),
  obj('EdgePlacement', 'p1', 'ws2'),
  obj('EdgePlacement', 'p1', 'ws1'),
  obj('EdgePlacement', 'orphan'),
]

const show = (keys: { step: string; key: string }[]) => keys.map((k) => `${k.step} ${k.key}`)

describe('keysForEvent: mailbox and where', () => {
  it('maps a SyncTarget to its mailbox and every where-key', async () => {
    const keys = await keysForEvent(
      SYNCTARGETS,
      { type: 'MODIFIED', object: obj('SyncTarget', 'st', 'inv1', UID) },
      deps(placements)
    )
    expect(keys).toEqual([
      { step: MAILBOX_STEP, key: `inv1-mb-${UID}` },
      { step: WHERE_STEP, key: 'ws1/p1' },
      { step: WHERE_STEP, key: 'ws1/p2' },
      { step: WHERE_STEP, key: 'ws2/p1' },
    ])
  })

  it('maps a SyncTarget without uid to where-keys only', async () => {
    const keys = await keysForEvent(
      SYNCTARGETS,
      { type: 'DELETED', object: obj('SyncTarget', 'st', 'inv1') },
      deps([obj('EdgePlacement', 'p', 'ws')])
    )
    expect(keys).toEqual([{ step: WHERE_STEP, key: 'ws/p' }])
  })

  it('maps a Location to every where-key', async () => {
    const d = deps(placements)
    const keys = await keysForEvent(LOCATIONS, { type: 'ADDED', object: obj('Location', 'l') }, d)
    expect(keys.map((k) => k.key)).toEqual(['ws1/p1', 'ws1/p2', 'ws2/p1'])
    expect(d.listed).toBe(1)
  })

  it('maps EdgePlacements and SinglePlacementSlices to their own where-key', async () => {
    const d = deps(placements)
    for (const r of [PLACEMENTS, SLICES]) {
      const keys = await keysForEvent(r, { type: 'ADDED', object: obj('X', 'p', 'ws9') }, d)
      expect(keys).toEqual([{ step: WHERE_STEP, key: 'ws9/p' }])
    }
    expect(await keysForEvent(PLACEMENTS, { type: 'ADDED', object: obj('X', 'p') }, d)).toEqual([])
    expect(d.listed).toBe(0)
  })

  it("maps a placement's part slices to its where-key, and the placement to every part's mailboxes", async () => {
    const d = deps(placements)
    const part = (name: string, mailboxes: number[]): KubeObject => {
      const s = slice(name, 'ws1', mailboxes)
      s.metadata.labels = { 'edge.kcp.io/source-placement': 'big' }
      s.metadata.ownerReferences = [
        {
          apiVersion: 'edge.kcp.io/v1alpha1',
          kind: 'EdgePlacement',
          name: 'big',
          uid: 'u-big',
          controller: true,
        },
      ]
      return s
    }
    const first = await keysForEvent(SLICES, { type: 'ADDED', object: part('big', [1, 2]) }, d)
    const second = await keysForEvent(SLICES, { type: 'ADDED', object: part('big-x7k2p', [3]) }, d)
    expect(first.filter((k) => k.step === WHERE_STEP)).toEqual([
      { step: WHERE_STEP, key: 'ws1/big' },
    ])
    expect(second.filter((k) => k.step === WHERE_STEP)).toEqual([
      { step: WHERE_STEP, key: 'ws1/big' },
    ])
    expect(show(second.filter((k) => k.step === TRANSLATE_STEP))).toEqual([
      `${TRANSLATE_STEP} ${mb(3)}`,
    ])
    const ep = await keysForEvent(
      PLACEMENTS,
      { type: 'MODIFIED', object: obj('EdgePlacement', 'big', 'ws1') },
      d
    )
    expect(show(ep.filter((k) => k.step === TRANSLATE_STEP))).toEqual(
      [1, 2, 3].map((n) => `${TRANSLATE_STEP} ${mb(n)}`)
    )
  })

  it('maps mailbox-named Workspaces in the espw space to mailbox and translate', async () => {
    const d = deps()
    const name = `inv1-mb-${UID}`
    const ws = (n: string, cluster: string) => ({
      type: 'DELETED',
      object: obj('Workspace', n, cluster),
    })
    expect(await keysForEvent(WORKSPACES, ws(name, 'espw1'), d)).toEqual([
      { step: MAILBOX_STEP, key: name },
      { step: TRANSLATE_STEP, key: name },
    ])
    expect(await keysForEvent(WORKSPACES, ws(name, 'other'), d)).toEqual([])
    expect(await keysForEvent(WORKSPACES, ws('plain', 'espw1'), d)).toEqual([])
  })

  it('wakes the mailbox step for a mailbox Workspace only when what it reads moved, never for its own create', async () => {
    const d = { ...deps(), mailboxes: new Map<string, string>() }
    const name = `inv1-mb-${UID}`
    const ws = (annotations: Record<string, string>, deletionTimestamp?: string): KubeObject => ({
      ...obj('Workspace', name, 'espw1'),
      metadata: {
        name,
        annotations: { 'kcp.io/cluster': 'espw1', ...annotations },
        ...(deletionTimestamp ? { deletionTimestamp } : {}),
      },
    })
    const woken = async (type: string, object: KubeObject) =>
      show(await keysForEvent(WORKSPACES, { type, object }, d))
    const named = { 'edge.kcp.io/sync-target-name': 'st1' }
    const translateOnly = [`${TRANSLATE_STEP} ${name}`]
    const both = [`${MAILBOX_STEP} ${name}`, ...translateOnly]
    expect(await woken('ADDED', ws(named))).toEqual(translateOnly)
    expect(await woken('MODIFIED', ws({ ...named, other: 'x' }))).toEqual(translateOnly)
    expect(await woken('MODIFIED', ws({ 'edge.kcp.io/sync-target-name': 'st2' }))).toEqual(both)
    expect(await woken('MODIFIED', ws(named, '2026-01-01T00:00:00Z'))).toEqual(both)
    expect(await woken('DELETED', ws(named, '2026-01-01T00:00:00Z'))).toEqual(both)
    // nothing remembered (after a DELETED, or a relay restart): a MODIFIED wakes
    expect(await woken('MODIFIED', ws(named))).toEqual(both)
    // without the memory, every MODIFIED wakes and an ADDED still does not
    const bare = deps()
    expect(
      show(await keysForEvent(WORKSPACES, { type: 'ADDED', object: ws(named) }, bare))
    ).toEqual(translateOnly)
    expect(
      show(await keysForEvent(WORKSPACES, { type: 'MODIFIED', object: ws(named) }, bare))
    ).toEqual(both)
  })

  it('wakes the where keys of the placements naming a mailbox when its Workspace comes or goes', async () => {
    const d = { ...deps(), mailboxes: new Map<string, string>() }
    await keysForEvent(SLICES, { type: 'ADDED', object: slice('p1', 'ws1', [1]) }, d)
    await keysForEvent(SLICES, { type: 'ADDED', object: slice('q', 'ws2', [1, 2]) }, d)
    const ws = (n: number, deletionTimestamp?: string): KubeObject => ({
      ...obj('Workspace', mb(n), 'espw1'),
      metadata: {
        name: mb(n),
        annotations: { 'kcp.io/cluster': 'espw1', 'edge.kcp.io/sync-target-name': `st${n}` },
        ...(deletionTimestamp ? { deletionTimestamp } : {}),
      },
    })
    const woken = async (type: string, object: KubeObject) =>
      show(await keysForEvent(WORKSPACES, { type, object }, d))
    const wheres = [`${WHERE_STEP} ws1/p1`, `${WHERE_STEP} ws2/q`]
    expect(await woken('ADDED', ws(1))).toEqual([...wheres, `${TRANSLATE_STEP} ${mb(1)}`])
    expect(await woken('ADDED', ws(2))).toEqual([
      `${WHERE_STEP} ws2/q`,
      `${TRANSLATE_STEP} ${mb(2)}`,
    ])
    // a MODIFIED that moves nothing the steps read wakes no where key
    expect(await woken('MODIFIED', ws(1))).toEqual([`${TRANSLATE_STEP} ${mb(1)}`])
    const gone = [`${MAILBOX_STEP} ${mb(1)}`, ...wheres, `${TRANSLATE_STEP} ${mb(1)}`]
    expect(await woken('MODIFIED', ws(1, '2026-01-01T00:00:00Z'))).toEqual(gone)
    expect(await woken('DELETED', ws(1, '2026-01-01T00:00:00Z'))).toEqual(gone)
    // a mailbox no slice names wakes no where key
    expect(await woken('ADDED', ws(3))).toEqual([`${TRANSLATE_STEP} ${mb(3)}`])
  })

  it('ignores bookmarks, errors and objects without metadata', async () => {
    const d = deps(placements)
    const st = obj('SyncTarget', 'st', 'inv1', UID)
    expect(await keysForEvent(SYNCTARGETS, { type: 'BOOKMARK', object: st }, d)).toEqual([])
    expect(await keysForEvent(SYNCTARGETS, { type: 'ERROR', object: st }, d)).toEqual([])
    const bare = { apiVersion: 'v1', kind: 'Status' } as unknown as KubeObject
    expect(await keysForEvent(LOCATIONS, { type: 'ADDED', object: bare }, d)).toEqual([])
    expect(d.listed).toBe(0)
  })

  it('propagates a failure to list placements', async () => {
    const d: EventKeysDeps = {
      espwSpaceId: 'e',
      index: createSliceIndex(),
      listEdgePlacements: () => Promise.reject(new Error('down')),
    }
    await expect(
      keysForEvent(LOCATIONS, { type: 'ADDED', object: obj('Location', 'l') }, d)
    ).rejects.toThrow('down')
  })

  it('agrees with the Worker on step names and key formats', () => {
    expect([MAILBOX_STEP, WHERE_STEP, TRANSLATE_STEP]).toEqual([
      WORKER_MAILBOX_STEP,
      WORKER_WHERE_STEP,
      WORKER_TRANSLATE_STEP,
    ])
    const st = obj('SyncTarget', 'st', 'inv1', UID)
    expect(mailboxOf(st)).toBe(workerMailboxOf(st))
    expect(isMailboxName(mailboxOf(st) ?? '')).toBe(true)
    expect(isMailboxName('inv1-mb-not-a-uid')).toBe(false)
    const ep = obj('EdgePlacement', 'p.q', 'ws1')
    expect(whereKeyOf(ep)).toBe(workerWhereKeyOf(ep))
  })
})

/** One event of a scenario and the translate keys it must wake (mailbox numbers). */
type Step = [name: string, ref: ResourceRef, type: string, object: KubeObject, translate: number[]]

const configMap = (space: string, name = 'cm') => obj('ConfigMap', name, space)

describe('keysForEvent: translate, over a sequence of events sharing one index', () => {
  const steps: Step[] = [
    ['slice added wakes its destinations', SLICES, 'ADDED', slice('p1', 'ws1', [1, 2]), [1, 2]],
    ['object in the slice space wakes them', CONFIGMAPS, 'MODIFIED', configMap('ws1'), [1, 2]],
    ['object in a space without slices wakes nothing', CONFIGMAPS, 'ADDED', configMap('ws2'), []],
    [
      'destination removed wakes the old mailbox too',
      SLICES,
      'MODIFIED',
      slice('p1', 'ws1', [2]),
      [1, 2],
    ],
    ['the index follows the removal', DEPLOYMENTS, 'ADDED', obj('Deployment', 'd', 'ws1'), [2]],
    [
      'placement wakes its slice mailboxes',
      PLACEMENTS,
      'MODIFIED',
      obj('EdgePlacement', 'p1', 'ws1'),
      [2],
    ],
    [
      'placement without slice wakes none',
      PLACEMENTS,
      'ADDED',
      obj('EdgePlacement', 'p9', 'ws1'),
      [],
    ],
    ['second slice in the same space', SLICES, 'ADDED', slice('p2', 'ws1', [3, 2]), [2, 3]],
    [
      'namespace wakes the union of the space',
      NAMESPACES,
      'ADDED',
      obj('Namespace', 'n', 'ws1'),
      [2, 3],
    ],
    ['a CRD wakes the space', CRDS, 'ADDED', obj('CustomResourceDefinition', 'x.y', 'ws1'), [2, 3]],
    [
      'a child Workspace wakes the space',
      WORKSPACES,
      'ADDED',
      obj('Workspace', 'kid', 'ws1'),
      [2, 3],
    ],
    ['objects in espw wake nothing', NAMESPACES, 'ADDED', obj('Namespace', 'n', 'espw1'), []],
    ['a slice in espw is not indexed', SLICES, 'ADDED', slice('s', 'espw1', [4]), []],
    [
      'the kube-root-ca.crt ConfigMap wakes nothing',
      CONFIGMAPS,
      'ADDED',
      configMap('ws1', 'kube-root-ca.crt'),
      [],
    ],
    ['slice deleted wakes its mailboxes', SLICES, 'DELETED', slice('p2', 'ws1', [3]), [2, 3]],
    ['the index forgets the deleted slice', CONFIGMAPS, 'DELETED', configMap('ws1'), [2]],
    ['the last slice deleted', SLICES, 'DELETED', slice('p1', 'ws1', [2]), [2]],
    ['then the space wakes nothing', CONFIGMAPS, 'MODIFIED', configMap('ws1'), []],
    [
      'a destination without uid is skipped',
      SLICES,
      'ADDED',
      {
        ...slice('p5', 'ws3', [5]),
        destinations: [
          { cluster: 'inv1', locationName: 'loc', syncTargetName: 'st6' },
          ...(slice('p5', 'ws3', [5]).destinations as unknown[]),
        ],
      } as KubeObject,
      [5],
    ],
    [
      'a slice that does not decode names nothing, and wakes what it named before',
      SLICES,
      'MODIFIED',
      {
        ...slice('p5', 'ws3', [5]),
        destinations: [{ cluster: 'inv1' }, 7, null, { cluster: 'inv1', syncTargetUID: uid(6) }],
      } as KubeObject,
      [5],
    ],
    ['then its space wakes nothing', CONFIGMAPS, 'MODIFIED', configMap('ws3'), []],
  ]
  const d = deps()
  it.for(steps)('%s', async ([_name, r, type, object, want]) => {
    const keys = await keysForEvent(r, { type, object }, d)
    expect(show(keys.filter((k) => k.step === TRANSLATE_STEP))).toEqual(
      show(want.map((n) => ({ step: TRANSLATE_STEP, key: mb(n) })))
    )
  })
})

describe('keysForRelist', () => {
  it('rebuilds the index from a relist, forgetting and waking slices that vanished', async () => {
    const d = deps()
    await keysForEvent(SLICES, { type: 'ADDED', object: slice('p1', 'ws1', [1]) }, d)
    await keysForEvent(SLICES, { type: 'ADDED', object: slice('q', 'ws2', [2, 3]) }, d)
    // The relist replays ADDED for what is there now: p1 (moved to mailbox 4) and a new r.
    const listed = [slice('p1', 'ws1', [4]), slice('r', 'ws3', [5])]
    const replayed = []
    for (const object of listed)
      replayed.push(...(await keysForEvent(SLICES, { type: 'ADDED', object }, d)))
    expect(show(replayed.filter((k) => k.step === TRANSLATE_STEP))).toEqual(
      show([1, 4, 5].map((n) => ({ step: TRANSLATE_STEP, key: mb(n) })))
    )
    expect(show(keysForRelist(SLICES, listed, d))).toEqual([
      `${TRANSLATE_STEP} ${mb(2)}`,
      `${TRANSLATE_STEP} ${mb(3)}`,
    ])
    expect(d.index.slices()).toEqual([
      { space: 'ws1', name: 'p1', placement: 'p1' },
      { space: 'ws3', name: 'r', placement: 'r' },
    ])
    expect(d.index.spaces()).toEqual(['ws1', 'ws3'])
    expect(await keysForEvent(CONFIGMAPS, { type: 'ADDED', object: configMap('ws2') }, d)).toEqual(
      []
    )
  })

  it('wakes nothing for other resources', () => {
    const d = deps()
    d.index.set('ws1', 'p', [mb(1)])
    expect(keysForRelist(CONFIGMAPS, [], d)).toEqual([])
    expect(d.index.ofSpace('ws1')).toEqual([mb(1)])
  })
})

describe('keysForEvent: EdgePlacement status writes', () => {
  it('translate only for a new uid or generation when the relay keeps specs', async () => {
    const d = { ...deps(), specs: new Map<string, string>() }
    d.index.set('ws1', 'p', [mb(1)])
    const ep = (generation: number, uid = 'u1') => ({
      ...obj('EdgePlacement', 'p', 'ws1', uid),
      metadata: { ...obj('EdgePlacement', 'p', 'ws1', uid).metadata, generation },
    })
    const translated = async (type: string, o: KubeObject) =>
      show(
        (await keysForEvent(PLACEMENTS, { type, object: o }, d)).filter(
          (k) => k.step === TRANSLATE_STEP
        )
      )
    const wake = [`${TRANSLATE_STEP} ${mb(1)}`]
    expect(await translated('ADDED', ep(1))).toEqual(wake)
    expect(await translated('MODIFIED', ep(1))).toEqual([])
    expect(await translated('MODIFIED', ep(2))).toEqual(wake)
    expect(await translated('MODIFIED', ep(2, 'u2'))).toEqual(wake)
    expect(await translated('DELETED', ep(2, 'u2'))).toEqual(wake)
    expect(await translated('ADDED', ep(2, 'u2'))).toEqual(wake)
  })
})

describe('keysForEvent: EdgePlacement events and the where step', () => {
  it('wakes the where key for a new uid, generation or deletion, not for status writes', async () => {
    const d = { ...deps(), wheres: new Map<string, string>() }
    const ep = (
      meta: Partial<KubeObject['metadata']>,
      status: Record<string, unknown> = {}
    ): KubeObject => ({
      ...obj('EdgePlacement', 'p', 'ws1', 'u1'),
      metadata: { ...obj('EdgePlacement', 'p', 'ws1', 'u1').metadata, generation: 1, ...meta },
      status,
    })
    const where = async (type: string, o: KubeObject) =>
      show(
        (await keysForEvent(PLACEMENTS, { type, object: o }, d)).filter(
          (k) => k.step === WHERE_STEP
        )
      )
    const wake = [`${WHERE_STEP} ws1/p`]
    const own = { specGeneration: 1, matchingLocationCount: 3 }
    expect(await where('ADDED', ep({}))).toEqual(wake)
    // status writes, the where step's own included, and metadata the step does not read
    expect(await where('MODIFIED', ep({}, own))).toEqual([])
    expect(await where('MODIFIED', ep({}, { ...own, conditions: [{ type: 'Ready' }] }))).toEqual([])
    expect(await where('MODIFIED', ep({ labels: { a: 'b' } }, { ...own, summary: 1 }))).toEqual([])
    // a new spec, a deletion
    expect(await where('MODIFIED', ep({ generation: 2 }, own))).toEqual(wake)
    expect(
      await where('MODIFIED', ep({ generation: 2, deletionTimestamp: '2026-01-01T00:00:00Z' }, own))
    ).toEqual(wake)
    expect(await where('DELETED', ep({ generation: 2 }, own))).toEqual(wake)
    expect(await where('ADDED', ep({ uid: 'u2' }))).toEqual(wake)
    // without the memory every event wakes it
    const bare = deps()
    expect(
      show(await keysForEvent(PLACEMENTS, { type: 'MODIFIED', object: ep({}, own) }, bare)).filter(
        (k) => k.startsWith(WHERE_STEP)
      )
    ).toEqual(wake)
  })
})

describe("keysForEvent: the summarize step's writes on workload objects", () => {
  it('translate only when what translate reads changed, when the relay keeps sources', async () => {
    const d = { ...deps(), sources: new Map<string, string>() }
    d.index.set('ws1', 'p', [mb(1)])
    const cm = (
      rv: string,
      extra: Partial<KubeObject['metadata']> = {},
      data = '1'
    ): KubeObject => ({
      ...configMap('ws1'),
      metadata: { ...configMap('ws1').metadata, namespace: 'app', resourceVersion: rv, ...extra },
      data: { a: data },
    })
    const counted = {
      annotations: { 'kcp.io/cluster': 'ws1', 'kubestellar.io/executing-count': '2' },
      finalizers: ['edge.kcp.io/edge-removal'],
    }
    const translated = async (type: string, o: KubeObject) =>
      show(
        (await keysForEvent(CONFIGMAPS, { type, object: o }, d)).filter(
          (k) => k.step === TRANSLATE_STEP
        )
      )
    const wake = [`${TRANSLATE_STEP} ${mb(1)}`]
    expect(await translated('ADDED', cm('1'))).toEqual(wake)
    expect(await translated('MODIFIED', cm('2', counted))).toEqual([])
    expect(await translated('MODIFIED', cm('3', counted, '2'))).toEqual(wake)
    expect(await translated('MODIFIED', cm('4', { ...counted, labels: { l: 'v' } }, '2'))).toEqual(
      wake
    )
    expect(await translated('MODIFIED', cm('5', { labels: { l: 'v' } }, '2'))).toEqual([])
    expect(await translated('DELETED', cm('6', { labels: { l: 'v' } }, '2'))).toEqual(wake)
    // after a DELETED (or a relay restart) nothing is remembered: the next event wakes
    expect(await translated('MODIFIED', cm('7', { labels: { l: 'v' } }, '2'))).toEqual(wake)
    // another object of the same space is remembered apart
    const other = { ...cm('8'), metadata: { ...cm('8').metadata, name: 'other' } }
    expect(await translated('MODIFIED', other)).toEqual(wake)
  })

  it('remembers objects written before any slice reaches their space', async () => {
    const d = { ...deps(), sources: new Map<string, string>() }
    const cm = (extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
      ...configMap('ws1'),
      metadata: { ...configMap('ws1').metadata, namespace: 'app', ...extra },
      data: { a: '1' },
    })
    const translated = async (r: ResourceRef, type: string, o: KubeObject) =>
      show((await keysForEvent(r, { type, object: o }, d)).filter((k) => k.step === TRANSLATE_STEP))
    // the workload first, then its placement's slice
    expect(await translated(CONFIGMAPS, 'ADDED', cm())).toEqual([])
    expect(await translated(SLICES, 'ADDED', slice('p1', 'ws1', [1, 2]))).toEqual(
      [1, 2].map((n) => `${TRANSLATE_STEP} ${mb(n)}`)
    )
    // the summarize step's first write on it (count and finalizer) changes nothing translate reads
    const counted = cm({
      annotations: { 'kcp.io/cluster': 'ws1', 'kubestellar.io/executing-count': '2' },
      finalizers: ['edge.kcp.io/edge-removal'],
    })
    expect(await translated(CONFIGMAPS, 'MODIFIED', counted)).toEqual([])
    expect(await translated(CONFIGMAPS, 'MODIFIED', { ...counted, data: { a: '2' } })).toEqual(
      [1, 2].map((n) => `${TRANSLATE_STEP} ${mb(n)}`)
    )
  })

  it('does not wake the mailboxes an event newer than the object already woke', async () => {
    const d = { ...deps(), sources: new Map<string, string>(), woken: new Map<string, number>() }
    const at = <T extends KubeObject>(o: T, rv: number): T => ({
      ...o,
      metadata: { ...o.metadata, resourceVersion: String(rv) },
    })
    const translated = async (r: ResourceRef, type: string, o: KubeObject) =>
      show((await keysForEvent(r, { type, object: o }, d)).filter((k) => k.step === TRANSLATE_STEP))
    const wake = (...ns: number[]) => ns.map((n) => `${TRANSLATE_STEP} ${mb(n)}`)
    // a placement's first slice at 20 wakes mailboxes 1 and 2
    expect(await translated(SLICES, 'ADDED', at(slice('p1', 'ws1', [1, 2]), 20))).toEqual(
      wake(1, 2)
    )
    // the workload watch it starts replays objects written before it: their runs already read them
    expect(await translated(CONFIGMAPS, 'ADDED', at(configMap('ws1', 'a'), 12))).toEqual([])
    expect(await translated(NAMESPACES, 'ADDED', at(obj('Namespace', 'app', 'ws1'), 3))).toEqual([])
    // a slice at 30 adds mailbox 3 and wakes all three: an object at 25 has nothing new for them
    expect(await translated(SLICES, 'MODIFIED', at(slice('p1', 'ws1', [1, 2, 3]), 30))).toEqual(
      wake(1, 2, 3)
    )
    expect(await translated(CONFIGMAPS, 'ADDED', at(configMap('ws1', 'b'), 25))).toEqual([])
    // an object written after every wake wakes them all, and so does one without a number
    expect(await translated(CONFIGMAPS, 'ADDED', at(configMap('ws1', 'c'), 31))).toEqual(
      wake(1, 2, 3)
    )
    expect(await translated(CONFIGMAPS, 'ADDED', configMap('ws1', 'd'))).toEqual(wake(1, 2, 3))
    // a slice event older than a mailbox's wake still wakes it (the slice index moved)
    expect(await translated(SLICES, 'MODIFIED', at(slice('p1', 'ws1', [1]), 29))).toEqual(
      wake(1, 2, 3)
    )
    // without the memory, every object wakes the space
    const bare = { ...deps(), sources: new Map<string, string>() }
    bare.index.set('ws1', 'p', [mb(1)])
    expect(
      show(
        await keysForEvent(CONFIGMAPS, { type: 'ADDED', object: at(configMap('ws1'), 1) }, bare)
      ).filter((k) => k.startsWith(TRANSLATE_STEP))
    ).toEqual(wake(1))
  })

  it('without sources every event translates', async () => {
    const d = deps()
    d.index.set('ws1', 'p', [mb(1)])
    for (let i = 0; i < 2; i++)
      expect(
        (await keysForEvent(CONFIGMAPS, { type: 'MODIFIED', object: configMap('ws1') }, d)).map(
          (k) => k.step
        )
      ).toContain(TRANSLATE_STEP)
  })
})

describe('keysForEvent: SyncTarget heartbeats', () => {
  it('a status-only change wakes no mailbox, where or translate key when the relay keeps syncTargets', async () => {
    const ep = obj('EdgePlacement', 'p', 'inv1')
    const d = { ...deps([ep]), syncTargets: new Map<string, string>() }
    d.index.set('inv1', 'p', [mb(1)])
    const st = (
      rv: string,
      status: Record<string, unknown>,
      labels: Record<string, string> = {}
    ) => ({
      ...obj('SyncTarget', 'st1', 'inv1', UID),
      metadata: { ...obj('SyncTarget', 'st1', 'inv1', UID).metadata, resourceVersion: rv, labels },
      status,
    })
    const steps = async (type: string, o: KubeObject) =>
      [
        ...new Set((await keysForEvent(SYNCTARGETS, { type, object: o }, d)).map((k) => k.step)),
      ].sort()
    const all = [MAILBOX_STEP, TRANSLATE_STEP, WHERE_STEP].sort()
    expect(await steps('ADDED', st('1', {}))).toEqual(all)
    const listed = d.listed
    expect(
      await steps('MODIFIED', st('2', { lastSyncerHeartbeatTime: '2026-01-01T00:00:00Z' }))
    ).toEqual([])
    expect(
      await steps('MODIFIED', st('3', { lastSyncerHeartbeatTime: '2026-01-01T00:01:00Z' }))
    ).toEqual([])
    // not even the placements were listed for the heartbeats
    expect(d.listed).toBe(listed)
    expect(
      await steps(
        'MODIFIED',
        st('4', { lastSyncerHeartbeatTime: '2026-01-01T00:01:00Z' }, { zone: 'a' })
      )
    ).toEqual(all)
    expect(await steps('DELETED', st('5', {}, { zone: 'a' }))).toEqual(all)
    expect(await steps('ADDED', st('6', {}, { zone: 'a' }))).toEqual(all)
  })

  it('without syncTargets every heartbeat wakes the steps', async () => {
    const d = deps([obj('EdgePlacement', 'p', 'inv1')])
    const st = {
      ...obj('SyncTarget', 'st1', 'inv1', UID),
      status: { lastSyncerHeartbeatTime: 'x' },
    }
    const keys = await keysForEvent(SYNCTARGETS, { type: 'MODIFIED', object: st }, d)
    expect(keys.map((k) => k.step)).toContain(WHERE_STEP)
  })
})
