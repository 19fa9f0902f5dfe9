import { afterEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { configMaps } from './fixtures.ts'
import { cmEntry, NOW, summary } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const w = (desired = [cmEntry('a')], expectedVersion: number | null = null) => ({
  desired,
  expectedVersion,
  now: NOW,
})

describe('writeManifests', () => {
  it('writes several mailboxes with one counter request and one round of log items', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    await t.projections.putBodies([cmEntry('a').body, cmEntry('b').body])
    counter.reset()
    const out = await t.projections.writeManifests([
      { mailbox: 'mb1', w: w() },
      { mailbox: 'mb2', w: w([cmEntry('a'), cmEntry('b')]) },
      { mailbox: 'mb3', w: w() },
    ])
    // The three manifests read in one batch, one rv request, three conditional puts, one log batch.
    expect(counter.snapshot()).toEqual({
      BatchGetItem: 1,
      UpdateItem: 1,
      PutItem: 3,
      BatchWriteItem: 1,
    })
    const versions = out.map((o) => (o.ok ? o.result.manifest.version : 0))
    expect(new Set(versions).size).toBe(3)
    expect(versions).toEqual([...versions].sort((x, y) => x - y))
    const stored = await t.projections.getManifests(['mb1', 'mb2', 'mb3', 'absent'])
    expect([...stored.keys()].sort()).toEqual(['mb1', 'mb2', 'mb3'])
    expect(stored.get('mb2')?.entries.map((e) => e.name)).toEqual(['a', 'b'])
    expect(stored.get('mb2')?.version).toBe(versions[1])
    // Each mailbox's watch sees its own copies at its own write's rv.
    for (const [i, mb] of ['mb1', 'mb2', 'mb3'].entries()) {
      const { events } = await t.objects.changes({ ...configMaps(mb), sinceRv: 0 })
      const want = mb === 'mb2' ? ['a', 'b'] : ['a']
      expect(summary(events)).toEqual(want.map((n) => `ADDED ns1/${n}@${versions[i]}`))
    }
  })

  it('fails only the writes that fail: a Conflict, a bad key and an unchanged one apart', async () => {
    t = await createTestStore()
    const first = await t.projections.writeManifest('mb1', w())
    const out = await t.projections.writeManifests([
      { mailbox: 'mb1', w: w([cmEntry('b')], first.manifest.version + 1000) },
      { mailbox: 'bad#id', w: w() },
      { mailbox: 'mb2', w: w([cmEntry('b')]) },
      { mailbox: 'mb1', w: w([cmEntry('a')], first.manifest.version) },
    ])
    expect(out.map((o) => (o.ok ? 'ok' : (o.error as { code?: number }).code))).toEqual([
      409,
      400,
      'ok',
      'ok',
    ])
    expect(out[3]?.ok && out[3].result.written).toBe(false)
    expect(out[2]?.ok && out[2].result.written).toBe(true)
    const stored = await t.projections.getManifests(['mb1', 'mb2'])
    expect(stored.get('mb1')?.entries.map((e) => e.name)).toEqual(['a'])
    expect(stored.get('mb2')?.entries.map((e) => e.name)).toEqual(['b'])
  })

  it('fails a write whose manifest moved since the version it planned against', async () => {
    t = await createTestStore()
    const first = await t.projections.writeManifest('mb1', w())
    const known = first.manifest
    await t.projections.writeManifest('mb1', w([cmEntry('b')], known.version))
    const [late, other] = await t.projections.writeManifests([
      { mailbox: 'mb1', w: { ...w([cmEntry('c')], known.version), known } },
      { mailbox: 'mb2', w: w() },
    ])
    expect(late).toMatchObject({ ok: false, error: { code: 409 } })
    expect(other?.ok).toBe(true)
    const { events } = await t.objects.changes({ ...configMaps('mb1'), sinceRv: 0 })
    expect(events.map((e) => e.object.metadata.name)).not.toContain('c')
  })

  it('sends one PutItem for a new body that concurrent writers store at once', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const body: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }
    const copies = Array.from({ length: 8 }, () => structuredClone(body))
    counter.reset()
    const hashes = await Promise.all(copies.map((c) => t!.projections.putBodies([c])))
    expect(new Set(hashes.flat()).size).toBe(1)
    expect(counter.snapshot()).toEqual({ PutItem: 1 })
  })
})

describe('getManifests', () => {
  it('reads many manifests 100 per request and refuses an invalid id', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const names = Array.from({ length: 130 }, (_, i) => `mb${i}`)
    await t.projections.writeManifests(names.map((mailbox) => ({ mailbox, w: w() })))
    counter.reset()
    const read = await t.projections.getManifests([...names, ...names])
    expect(read.size).toBe(130)
    expect(read.get('mb77')?.entries[0]?.name).toBe('a')
    expect(counter.snapshot()).toEqual({ BatchGetItem: 2 })
    await expect(t.projections.getManifests(['ok', 'no/slash'])).rejects.toMatchObject({
      code: 400,
    })
  })
})
