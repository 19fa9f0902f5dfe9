import { afterEach, describe, expect, it } from 'vitest'
import { CLUSTER_ANNOTATION } from '../../../lib/kube/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps } from './fixtures.ts'
import { cmEntry, NOW, secretEntry, summary } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('changes() of manifest writes', () => {
  it('expands one write into ADDED, MODIFIED and DELETED events at the write rv', async () => {
    t = await createTestStore()
    const p = t.projections
    const v1 = await p.writeManifest('mb1', {
      desired: [cmEntry('a'), cmEntry('b')],
      expectedVersion: null,
      now: NOW,
    })
    const r1 = v1.manifest.version
    const v2 = await p.writeManifest('mb1', {
      desired: [cmEntry('a', 'ns1', { k: 'v' })],
      expectedVersion: r1,
      now: NOW,
    })
    const r2 = v2.manifest.version
    await p.deleteManifest('mb1')
    const { events, more } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0 })
    const r3 = events.at(-1)!.rv
    expect(summary(events)).toEqual([
      `ADDED ns1/a@${r1}`,
      `ADDED ns1/b@${r1}`,
      `MODIFIED ns1/a@${r2}`,
      `DELETED ns1/b@${r2}`,
      `DELETED ns1/a@${r3}`,
    ])
    expect(more).toBe(false)
    const modified = events[2]!.object
    const entry = v2.manifest.entries[0]!
    expect(modified).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'a',
        namespace: 'ns1',
        labels: { app: 'a' },
        uid: entry.uid,
        resourceVersion: String(r2),
        creationTimestamp: '2030-01-02T03:04:05Z',
        generation: 2,
        annotations: { [CLUSTER_ANNOTATION]: 'mb1' },
      },
      data: { k: 'v' },
    })
    expect(events[3]?.object.metadata.resourceVersion).toBe(String(r2))
    expect(events[4]?.object.data).toEqual({ k: 'v' })
    expect(events.every((e) => e.cluster === 'mb1' && e.namespace === 'ns1')).toBe(true)
  })

  it('keeps group/resources apart and filters by namespace per copy', async () => {
    t = await createTestStore()
    await t.objects.create(cmKey('real', 'ns1', 'mb1'), configMap('real', 'ns1'))
    const desired = [cmEntry('a'), cmEntry('b', 'ns2'), cmEntry('c'), secretEntry('s')]
    const { manifest } = await t.projections.writeManifest('mb1', {
      desired,
      expectedVersion: null,
      now: NOW,
    })
    const rv = manifest.version
    const ns1 = await t.objects.changes({ ...configMaps('mb1', 'ns1'), sinceRv: 0 })
    expect(summary(ns1.events)).toEqual([
      'ADDED ns1/real@1',
      `ADDED ns1/a@${rv}`,
      `ADDED ns1/c@${rv}`,
    ])
    const ns2 = await t.objects.changes({ ...configMaps('mb1', 'ns2'), sinceRv: 0 })
    expect(summary(ns2.events)).toEqual([`ADDED ns2/b@${rv}`])
    const none = await t.objects.changes({ ...configMaps('mb1', 'ns3'), sinceRv: 0 })
    expect(none).toMatchObject({ events: [], more: false })
    const secrets = await t.objects.changes({
      cluster: 'mb1',
      group: '',
      resource: 'secrets',
      sinceRv: 0,
    })
    expect(summary(secrets.events)).toEqual([`ADDED ns1/s@${rv}`])
  })

  it('shows every mailbox in the cross-space feed, in rv order with ordinary objects', async () => {
    t = await createTestStore()
    const w1 = await t.projections.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: null,
      now: NOW,
    })
    await t.objects.create(cmKey('plain', 'ns1', 'ws'), configMap('plain', 'ns1'))
    const w2 = await t.projections.writeManifest('mb2', {
      desired: [cmEntry('a'), cmEntry('z', 'ns2')],
      expectedVersion: null,
      now: NOW,
    })
    const all = await t.objects.changes({ ...configMaps('*'), sinceRv: 0 })
    expect(all.events.map((e) => `${e.cluster} ${e.object.metadata.name}@${e.rv}`)).toEqual([
      `mb1 a@${w1.manifest.version}`,
      `ws plain@${w1.manifest.version + 1}`,
      `mb2 a@${w2.manifest.version}`,
      `mb2 z@${w2.manifest.version}`,
    ])
    const ns2 = await t.objects.changes({ ...configMaps('*', 'ns2'), sinceRv: 0 })
    expect(summary(ns2.events)).toEqual([`ADDED ns2/z@${w2.manifest.version}`])
    expect(ns2.events[0]?.object.metadata.annotations?.[CLUSTER_ANNOTATION]).toBe('mb2')
  })

  it('never splits a write across calls when limit falls inside it', async () => {
    t = await createTestStore()
    const w = await t.projections.writeManifest('mb1', {
      desired: [cmEntry('a'), cmEntry('b'), cmEntry('c')],
      expectedVersion: null,
      now: NOW,
    })
    const rv = w.manifest.version
    await t.objects.create(cmKey('after', 'ns1', 'mb1'), configMap('after', 'ns1'))
    const first = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0, limit: 2 })
    expect(summary(first.events)).toEqual([
      `ADDED ns1/a@${rv}`,
      `ADDED ns1/b@${rv}`,
      `ADDED ns1/c@${rv}`,
    ])
    expect(first.more).toBe(true)
    const rest = await t.objects.changes({ ...configMaps('mb1'), sinceRv: rv, limit: 2 })
    expect(summary(rest.events)).toEqual([`ADDED ns1/after@${rv + 1}`])
    expect(rest.more).toBe(false)
    const exact = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0, limit: 3 })
    expect([exact.events.length, exact.more]).toEqual([3, true])
  })
})
