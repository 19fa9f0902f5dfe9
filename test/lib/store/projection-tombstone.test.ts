/**
 * Tombstones in a mailbox manifest (the deletion lifecycle): an entry with `removing` is stored
 * with it, rendered as a terminating object (deletionTimestamp, the edge-removal finalizer) in
 * events and reads, keeps uid and generation, and its drop is a DELETED event. A change of
 * `sources` alone is stored without an event or rv change, and a `gone` copy state round-trips.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { EDGE_REMOVAL_FINALIZER } from '../../../lib/deletion/lifecycle.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { configMaps } from './fixtures.ts'
import { cmEntry, NOW, summary } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const REMOVING = '2030-01-02T04:00:00Z'
const tomb = (e: DesiredEntry): DesiredEntry => ({ ...e, removing: REMOVING })
const src = (space: string, ...placements: string[]) => [{ space, placements }]

describe('tombstones', () => {
  it('persists removing, renders it terminating, and logs MODIFIED then DELETED', async () => {
    t = await createTestStore()
    const p = t.projections
    const a = { ...cmEntry('a'), sources: src('ws1', 'ep1') }
    const v1 = await p.writeManifest('mb1', {
      desired: [a, cmEntry('b')],
      expectedVersion: null,
      now: NOW,
    })
    const before = v1.manifest.entries[0]!
    const v2 = await p.writeManifest('mb1', {
      desired: [tomb(a), cmEntry('b')],
      expectedVersion: v1.manifest.version,
      now: NOW,
    })
    expect(v2).toMatchObject({ written: true, changed: 1, added: 0, removed: 0 })
    const stored = (await p.getManifest('mb1'))!.entries[0]!
    expect(stored).toEqual({
      ...before,
      rv: v2.manifest.version,
      removing: REMOVING,
      sources: src('ws1', 'ep1'),
    })
    expect(stored.generation).toBe(1)
    // The same tombstone again writes nothing.
    const again = await p.writeManifest('mb1', {
      desired: [tomb(a), cmEntry('b')],
      expectedVersion: v2.manifest.version,
      now: NOW,
    })
    expect(again.written).toBe(false)
    const v3 = await p.writeManifest('mb1', {
      desired: [cmEntry('b')],
      expectedVersion: v2.manifest.version,
      now: NOW,
    })
    expect(v3.removed).toBe(1)
    const { events } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0 })
    const [r1, r2, r3] = [v1, v2, v3].map((v) => v.manifest.version)
    expect(summary(events)).toEqual([
      `ADDED ns1/a@${r1}`,
      `ADDED ns1/b@${r1}`,
      `MODIFIED ns1/a@${r2}`,
      `DELETED ns1/a@${r3}`,
    ])
    const terminating = events[2]!.object.metadata
    expect(terminating.deletionTimestamp).toBe(REMOVING)
    expect(terminating.finalizers).toEqual([EDGE_REMOVAL_FINALIZER])
    expect(terminating.uid).toBe(before.uid)
    expect(events[0]!.object.metadata.deletionTimestamp).toBeUndefined()
  })

  it('revives a tombstone with its uid and without deletionTimestamp', async () => {
    t = await createTestStore()
    const p = t.projections
    const v1 = await p.writeManifest('mb1', {
      desired: [tomb(cmEntry('a'))],
      expectedVersion: null,
      now: NOW,
    })
    const uid = v1.manifest.entries[0]!.uid
    const v2 = await p.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: v1.manifest.version,
      now: NOW,
    })
    expect(v2.changed).toBe(1)
    const live = v2.manifest.entries[0]!
    expect(live.uid).toBe(uid)
    expect(live.removing).toBeUndefined()
    const { events } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0 })
    expect(events.map((e) => [e.type, e.object.metadata.deletionTimestamp])).toEqual([
      ['ADDED', REMOVING],
      ['MODIFIED', undefined],
    ])
  })

  it('writes a change of sources alone without an event or a new rv for the entry', async () => {
    t = await createTestStore()
    const p = t.projections
    const v1 = await p.writeManifest('mb1', {
      desired: [{ ...cmEntry('a'), sources: src('ws1', 'ep1') }],
      expectedVersion: null,
      now: NOW,
    })
    const entry = v1.manifest.entries[0]!
    const next = { ...cmEntry('a'), sources: src('ws1', 'ep1', 'ep2') }
    const v2 = await p.writeManifest('mb1', {
      desired: [next],
      expectedVersion: v1.manifest.version,
      now: NOW,
    })
    expect(v2).toMatchObject({ written: true, added: 0, changed: 0, removed: 0 })
    expect(v2.manifest.version).toBeGreaterThan(v1.manifest.version)
    expect((await p.getManifest('mb1'))!.entries[0]).toEqual({
      ...entry,
      sources: src('ws1', 'ep1', 'ep2'),
    })
    const { events } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0 })
    expect(summary(events)).toEqual([`ADDED ns1/a@${v1.manifest.version}`])
    const v3 = await p.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: v2.manifest.version,
      now: NOW,
    })
    expect(v3.written).toBe(true)
    expect((await p.getManifest('mb1'))!.entries[0]!.sources).toBeUndefined()
  })

  it('refuses a removing time that is not a time', async () => {
    t = await createTestStore()
    const bad = { ...cmEntry('a'), removing: 'soon' }
    await expect(
      t.projections.writeManifest('mb1', { desired: [bad], expectedVersion: null, now: NOW })
    ).rejects.toMatchObject({
      code: 400,
    })
  })

  it('stores a gone state of a tombstone and reads it back', async () => {
    t = await createTestStore()
    const p = t.projections
    const v1 = await p.writeManifest('mb1', {
      desired: [tomb(cmEntry('a'))],
      expectedVersion: null,
      now: NOW,
    })
    const { uid } = v1.manifest.entries[0]!
    const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: 'a' }
    const [res] = await p.putCopyStates('mb1', [
      { key, state: { uid, status: {}, gone: true }, expectedRv: null },
    ])
    expect(res?.outcome).toBe('written')
    const read = (await p.getCopyStates('mb1', [key])).get('/configmaps/ns1/a')
    expect(read).toMatchObject({ uid, gone: true, status: {} })
  })
})
