import { afterEach, describe, expect, it } from 'vitest'
import { deleteBlob } from '../../../lib/store/blobs.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import {
  apiError,
  cmKey,
  configMap,
  configMaps,
  contextOf,
  faultHook,
  manualClock,
  putsInto,
} from './fixtures.ts'

let t: TestStore | undefined

function randomText(length: number): string {
  const parts: string[] = []
  for (let at = 0; at < length; at += 3 * 16_384) {
    const bytes = crypto.getRandomValues(new Uint8Array(3 * 16_384))
    parts.push(btoa(String.fromCharCode(...bytes)))
  }
  return parts.join('').slice(0, length)
}
afterEach(async () => {
  await t?.close()
  t = undefined
})

const summary = (events: { type: string; object: { metadata: { name?: string } }; rv: number }[]) =>
  events.map((e) => `${e.type} ${e.object.metadata.name}@${e.rv}`)

describe('changes()', () => {
  it('returns ADDED, MODIFIED and DELETED oldest first, with the deletion rv', async () => {
    t = await createTestStore()
    const a = await t.objects.create(cmKey('a'), configMap('a', 'default', { v: '1' }))
    const a2 = await t.objects.update(
      cmKey('a'),
      { ...a, data: { v: '2' } },
      a.metadata.resourceVersion!
    )
    await t.objects.create(cmKey('b'), configMap('b'))
    const gone = await t.objects.delete(cmKey('a'))
    const { events, more } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(summary(events)).toEqual(['ADDED a@1', 'MODIFIED a@2', 'ADDED b@3', 'DELETED a@4'])
    expect(more).toBe(false)
    expect(events[1]?.object).toEqual(a2)
    expect(events[3]?.object).toEqual(gone)
    expect(events[3]?.object.data).toEqual({ v: '2' })
    expect(events[3]?.object.metadata.resourceVersion).toBe('4')
    expect(events.every((e) => e.cluster === 'c1' && e.namespace === 'default')).toBe(true)
  })

  it('starts strictly after sinceRv and pages with limit and more', async () => {
    t = await createTestStore()
    for (const n of ['a', 'b', 'c', 'd']) await t.objects.create(cmKey(n), configMap(n))
    const after2 = await t.objects.changes({ ...configMaps('c1'), sinceRv: 2 })
    expect(summary(after2.events)).toEqual(['ADDED c@3', 'ADDED d@4'])
    const page = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0, limit: 3 })
    expect(summary(page.events)).toEqual(['ADDED a@1', 'ADDED b@2', 'ADDED c@3'])
    expect(page.more).toBe(true)
    const rest = await t.objects.changes({ ...configMaps('c1'), sinceRv: 3, limit: 3 })
    expect(summary(rest.events)).toEqual(['ADDED d@4'])
    expect(rest.more).toBe(false)
    expect((await t.objects.changes({ ...configMaps('c1'), sinceRv: 4 })).events).toEqual([])
  })

  it('filters by namespace and keeps collections and spaces apart', async () => {
    t = await createTestStore()
    await t.objects.create(cmKey('a', 'ns1'), configMap('a', 'ns1'))
    await t.objects.create(cmKey('b', 'ns2'), configMap('b', 'ns2'))
    await t.objects.create(cmKey('c', 'ns1', 'c2'), configMap('c', 'ns1'))
    await t.objects.create(
      { cluster: 'c1', group: '', resource: 'secrets', namespace: 'ns1', name: 's' },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }
    )
    const ns1 = await t.objects.changes({ ...configMaps('c1', 'ns1'), sinceRv: 0 })
    expect(summary(ns1.events)).toEqual(['ADDED a@1'])
    const c1 = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(summary(c1.events)).toEqual(['ADDED a@1', 'ADDED b@2'])
    const all = await t.objects.changes({ ...configMaps('*'), sinceRv: 0 })
    expect(all.events.map((e) => `${e.cluster}/${e.namespace}/${e.object.metadata.name}`)).toEqual([
      'c1/ns1/a',
      'c1/ns2/b',
      'c2/ns1/c',
    ])
    const allNs1 = await t.objects.changes({ ...configMaps('*', 'ns1'), sinceRv: 1 })
    expect(summary(allNs1.events)).toEqual(['ADDED c@3'])
  })

  it('withholds entries until settled, so an earlier slow write is not skipped', async () => {
    const clock = manualClock()
    const faults = faultHook()
    t = await createTestStore({ now: clock.now, settleMs: 1000, fault: faults.hook })
    const release = faults.hold('PutItem', putsInto('l#'))
    const slow = t.objects.create(cmKey('slow'), configMap('slow'))
    while (faults.pending() > 0) await new Promise((r) => setTimeout(r, 5))
    await t.objects.create(cmKey('fast'), configMap('fast'))
    // The fast write (rv 2) is logged, the slow one (rv 1) is not yet: nothing is settled.
    expect((await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })).events).toEqual([])
    release()
    await slow
    clock.advance(1000)
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(summary(events)).toEqual(['ADDED slow@1', 'ADDED fast@2'])
  })

  it('stops at the first unsettled entry and does not claim more', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, settleMs: 500 })
    await t.objects.create(cmKey('a'), configMap('a'))
    clock.advance(500)
    await t.objects.create(cmKey('b'), configMap('b'))
    const first = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0, limit: 1 })
    expect(summary(first.events)).toEqual(['ADDED a@1'])
    expect(first.more).toBe(false)
    clock.advance(500)
    const second = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0, limit: 1 })
    expect(second.more).toBe(true)
  })

  it('says when the unsettled entry it stopped at settles, and nothing once all are out', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, settleMs: 500 })
    const issuedAt = clock.now()
    await t.objects.create(cmKey('a'), configMap('a'))
    clock.advance(200)
    const early = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(early.events).toEqual([])
    expect(early.settlesAt).toBe(issuedAt + 500)
    clock.advance(300)
    const settled = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(summary(settled.events)).toEqual(['ADDED a@1'])
    expect(settled.settlesAt).toBeUndefined()
  })

  it('skips an entry whose large body has vanished instead of failing every watcher', async () => {
    t = await createTestStore()
    const big = configMap('big', 'default', { blob: randomText(800_000) })
    await t.objects.create(cmKey('big'), big)
    await t.objects.create(cmKey('small'), configMap('small'))
    await deleteBlob(contextOf(t), { blobRv: 1, chunks: 10 })
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(summary(events)).toEqual(['ADDED small@2'])
    // Reading the damaged object itself is an internal error, not a wrong answer.
    expect((await apiError(t.objects.get(cmKey('big')))).code).toBe(500)
  })

  it('rejects bad sinceRv and limit values', async () => {
    t = await createTestStore()
    for (const opts of [
      { ...configMaps('c1'), sinceRv: -1 },
      { ...configMaps('c1'), sinceRv: 1.5 },
      { ...configMaps('c1'), sinceRv: 0, limit: 0 },
      { ...configMaps('c1/x'), sinceRv: 0 },
    ]) {
      expect((await apiError(t.objects.changes(opts))).code).toBe(400)
    }
  })
})
