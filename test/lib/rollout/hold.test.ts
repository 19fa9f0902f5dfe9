/** What a destination receives of a Rollout's governed objects (lib/rollout/hold.ts). */
import { describe, expect, it } from 'vitest'
import type { RolloutSpec, RolloutStatus } from '../../../lib/apis/edge-rollout.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import { belowCut, raiseCut } from '../../../lib/rollout/edge-order.ts'
import {
  destinationPlace,
  destinationRevision,
  type HeldRollout,
  holdFor,
} from '../../../lib/rollout/hold.ts'
import { type RevisionRecord, revisionKeyOf } from '../../../lib/rollout/revision.ts'
import { ROLLOUT_REVISION_ANNOTATION, stampOf } from '../../../lib/rollout/stamp.ts'

const spec: RolloutSpec = {
  waves: [
    { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
    { name: 'rest' },
  ],
}
const cm = (name: string, v: string): SourceObject => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  object: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'shop' },
    data: { v },
  } as KubeObject,
})
const canary = { labels: { ring: 'canary' }, syncTargetUid: 'u-canary' }
const other = { labels: { ring: 'prod' }, syncTargetUid: 'u-other' }

/** A Rollout whose revisions hold the given objects (each revision: objects by name → value). */
function rollout(
  revisions: Record<number, SourceObject[]>,
  status: RolloutStatus | undefined,
  extra: Partial<HeldRollout> = {}
): HeldRollout {
  const bodies = new Map<string, KubeObject>()
  const records = new Map<number, RevisionRecord>()
  for (const [n, objects] of Object.entries(revisions)) {
    records.set(Number(n), {
      number: Number(n),
      cutAt: 'x',
      objects: objects.map((o) => {
        const hash = `${o.object.metadata.name}@${(o.object as unknown as { data: { v: string } }).data.v}`
        bodies.set(hash, o.object)
        return { key: revisionKeyOf(o), hash, version: 'v1', namespaced: true }
      }),
    })
  }
  return {
    name: 'shop',
    creationTimestamp: '2026-12-01T00:00:00Z',
    spec,
    status,
    governs: (o) => o.object.metadata.namespace === 'shop',
    record: (n) => records.get(n),
    body: (h) => bodies.get(h),
    ...extra,
  }
}
const inFlight: RolloutStatus = {
  revision: 2,
  completedRevision: 1,
  waves: [
    { name: 'canary', revision: 2, cut: 1, edges: 1, ready: 0, failed: 0, stale: 0, pending: 1 },
    { name: 'rest', revision: 1, cut: 1, edges: 1, ready: 1, failed: 0, stale: 0, pending: 0 },
  ],
}
const values = (objs: SourceObject[]) =>
  objs.map(
    (o) => `${o.object.metadata.name}=${(o.object as unknown as { data: { v: string } }).data.v}`
  )
const run = (r: HeldRollout, selected: SourceObject[], dest = canary) =>
  holdFor({
    selected,
    liveKeys: new Set(selected.map(revisionKeyOf)),
    rollouts: [r],
    dest,
    selects: (c) => c,
  })

describe('destinationRevision', () => {
  it('is the wave’s revision below the cut, what it held above, the completed one elsewhere', () => {
    expect(destinationRevision(spec, undefined, canary)).toBeUndefined()
    expect(destinationRevision(spec, inFlight, canary)).toBe(2)
    expect(destinationRevision(spec, inFlight, other)).toBe(1)
    const uids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const cut = raiseCut(2, uids, 0, 4)
    const [first, rest] = inFlight.waves ?? []
    if (!first || !rest) throw new Error('fixture')
    const partial: RolloutStatus = { ...inFlight, waves: [{ ...first, cut, from: 1 }, rest] }
    expect(uids.filter((u) => belowCut(2, u, cut))).toHaveLength(4)
    for (const uid of uids) {
      const want = belowCut(2, uid, cut) ? 2 : 1
      expect(
        destinationRevision(spec, partial, { labels: { ring: 'canary' }, syncTargetUid: uid })
      ).toBe(want)
    }
    const noCatchAll = { waves: [spec.waves[0]] } as RolloutSpec
    expect(destinationRevision(noCatchAll, inFlight, other)).toBe(1)
  })
})

describe('destinationPlace', () => {
  it('names one revision per place, and keeps a wave’s name through its promotion', () => {
    expect(destinationPlace(spec, undefined, canary)).toBeUndefined()
    expect(destinationPlace(spec, inFlight, canary)).toBe('canary')
    expect(destinationPlace(spec, inFlight, other)).toBe('rest')
    const [first, rest] = inFlight.waves ?? []
    if (!first || !rest) throw new Error('fixture')
    const before: RolloutStatus = { ...inFlight, waves: [{ ...first, revision: 1 }, rest] }
    expect(destinationPlace(spec, before, canary)).toBe('canary')
    const uids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    const cut = raiseCut(2, uids, 0, 4)
    const partial: RolloutStatus = { ...inFlight, waves: [{ ...first, cut, from: 1 }, rest] }
    const byPlace = new Map<string, Set<number | undefined>>()
    for (const uid of uids) {
      const d = { labels: { ring: 'canary' }, syncTargetUid: uid }
      const place = destinationPlace(spec, partial, d) ?? ''
      expect(place).toBe(belowCut(2, uid, cut) ? 'canary' : 'canary>')
      byPlace.set(
        place,
        (byPlace.get(place) ?? new Set()).add(destinationRevision(spec, partial, d))
      )
    }
    expect(byPlace.get('canary')).toEqual(new Set([2]))
    expect(byPlace.get('canary>')).toEqual(new Set([1]))
    const noCatchAll = { waves: [spec.waves[0]] } as RolloutSpec
    expect(destinationPlace(noCatchAll, inFlight, other)).toBe('-')
  })
})

describe('holdFor', () => {
  const revisions = { 1: [cm('a', '1'), cm('gone', '1')], 2: [cm('a', '2'), cm('new', '2')] }

  it('sends each destination its revision’s bodies, never the live ones', () => {
    const live = [cm('a', '3'), cm('new', '3')]
    expect(values(run(rollout(revisions, inFlight), live, canary))).toEqual(['a=2', 'new=2'])
    expect(values(run(rollout(revisions, inFlight), live, other))).toEqual(['a=1', 'gone=1'])
  })

  it('leaves objects it does not govern, and everything before adoption, as they are', () => {
    const free = {
      ...cm('free', '9'),
      object: { ...cm('free', '9').object, metadata: { name: 'free', namespace: 'web' } },
    }
    expect(values(run(rollout(revisions, inFlight), [cm('a', '3'), free], other))).toEqual([
      'a=1',
      'free=9',
      'gone=1',
    ])
    expect(values(run(rollout(revisions, undefined), [cm('a', '3')]))).toEqual(['a=3'])
  })

  it('keeps a deleted object only where the placement would still select it', () => {
    const r = rollout(revisions, inFlight)
    const out = holdFor({
      selected: [cm('a', '3')],
      liveKeys: new Set([revisionKeyOf(cm('a', '3'))]),
      rollouts: [r],
      dest: other,
      selects: () => [],
    })
    expect(values(out)).toEqual(['a=1'])
  })

  it('lets the oldest Rollout govern an object two select', () => {
    const older = rollout(
      { 1: [cm('a', 'old')] },
      { completedRevision: 1, revision: 1 },
      {
        name: 'zz',
        creationTimestamp: '2026-11-01T00:00:00Z',
      }
    )
    const out = holdFor({
      selected: [cm('a', '3')],
      liveKeys: new Set([revisionKeyOf(cm('a', '3'))]),
      rollouts: [rollout(revisions, inFlight), older],
      dest: canary,
      selects: (c) => c,
    })
    expect(values(out)).toEqual(['a=old', 'new=2'])
  })

  it('stamps every object it sends from a revision, and nothing else', () => {
    const free = {
      ...cm('free', '9'),
      object: { ...cm('free', '9').object, metadata: { name: 'free', namespace: 'web' } },
    }
    const stamps = (objs: SourceObject[]) =>
      objs.map((o) => `${o.object.metadata.name}:${stampOf(o.object)?.revision ?? '-'}`)
    const r = rollout(revisions, inFlight)
    expect(stamps(run(r, [cm('a', '3'), free], canary))).toEqual(['a:2', 'free:-', 'new:2'])
    const other_ = run(r, [cm('a', '3')], other)
    expect(stamps(other_)).toEqual(['a:1', 'gone:1'])
    expect(other_[0]?.object.metadata.annotations?.[ROLLOUT_REVISION_ANNOTATION]).toBe('shop/1')
    // The stored body is not changed by the stamp.
    expect(r.body('a@1')?.metadata.annotations).toBeUndefined()
  })

  it('refuses to send anything when a revision or a body is missing', () => {
    const broken = rollout(revisions, inFlight, { record: () => undefined })
    expect(() => run(broken, [cm('a', '3')])).toThrow('revision 2 is not stored')
    const bodiless = rollout(revisions, inFlight, { body: () => undefined })
    expect(() => run(bodiless, [cm('a', '3')])).toThrow('lacks /configmaps/shop/a')
  })
})
