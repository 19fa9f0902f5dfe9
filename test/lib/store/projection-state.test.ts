/**
 * Copy states in the store: conditional writes only for copies the manifest holds, one rv and one
 * log item per group/resource per call, events rendered with the state, reads by key and by
 * collection, request costs, and the sweep removing states of copies that are gone.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { CopyState } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, configMaps, manualClock } from './fixtures.ts'
import { cmEntry, NOW, secretEntry } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const key = (name: string, namespace = 'ns1') => ({
  group: '',
  resource: 'configmaps',
  namespace,
  name,
})
const secretKey = { group: '', resource: 'secrets', namespace: 'ns1', name: 's' }

async function setup(counter = createRequestCounter()) {
  t = await createTestStore({ counter })
  const desired = [cmEntry('a'), cmEntry('b'), cmEntry('c', 'ns2'), secretEntry('s')]
  const { manifest } = await t.projections.writeManifest('mb1', {
    desired,
    expectedVersion: null,
    now: NOW,
  })
  const uid = (name: string) => manifest.entries.find((e) => e.name === name)!.uid
  return { store: t, manifest, uid, counter }
}

describe('copy states', () => {
  it('writes states of copies the manifest holds, each conditionally', async () => {
    const { store, uid, counter, manifest } = await setup()
    const a: CopyState = { uid: uid('a'), status: { phase: 'Ready' }, observedGeneration: 1 }
    counter.reset()
    const results = await store.projections.putCopyStates('mb1', [
      { key: key('a'), state: a, expectedRv: null },
      { key: key('b'), state: { uid: 'wrong', status: {} }, expectedRv: null },
      { key: key('zz'), state: { uid: uid('a'), status: {} }, expectedRv: null },
      { key: secretKey, state: { uid: uid('s'), status: { x: 1 } }, expectedRv: null },
    ])
    expect(results.map((r) => r.outcome)).toEqual(['written', 'gone', 'gone', 'written'])
    // 1 manifest read, 1 rv, 2 conditional puts, 1 batch of 2 log items
    expect(counter.snapshot()).toEqual({ GetItem: 1, UpdateItem: 1, PutItem: 2, BatchWriteItem: 1 })
    const rv = results[0]!.outcome === 'written' ? results[0]!.state.rv : 0
    expect(rv).toBeGreaterThan(manifest.version)
    const again = await store.projections.putCopyStates('mb1', [
      { key: key('a'), state: { ...a, status: {} }, expectedRv: null },
    ])
    expect(again.map((r) => r.outcome)).toEqual(['conflict'])
    const stale = await store.projections.putCopyStates('mb1', [
      { key: key('a'), state: { ...a, status: {} }, expectedRv: rv - 1 },
    ])
    expect(stale.map((r) => r.outcome)).toEqual(['conflict'])
    counter.reset()
    const states = await store.projections.getCopyStates('mb1', [key('a'), key('b'), secretKey])
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    expect([...states.keys()].sort()).toEqual(['/configmaps/ns1/a', '/secrets/ns1/s'])
    expect(states.get('/configmaps/ns1/a')).toEqual({ ...a, rv })
    const listed = await store.projections.listCopyStates('mb1', {
      group: '',
      resource: 'configmaps',
      namespace: 'ns1',
    })
    expect([...listed.keys()]).toEqual(['/configmaps/ns1/a'])
    const none = await store.projections.listCopyStates('mb1', {
      group: '',
      resource: 'configmaps',
      namespace: 'ns',
    })
    expect(none.size).toBe(0)
  })

  it('logs MODIFIED events rendered with the new state', async () => {
    const { store, uid, manifest } = await setup()
    const state = { uid: uid('a'), status: { phase: 'Ready' }, observedGeneration: 1 }
    const [r] = await store.projections.putCopyStates('mb1', [
      {
        key: key('a'),
        state: { ...state, associated: [{ kind: 'Pod', namespace: 'ns1', name: 'p' }] },
        expectedRv: null,
      },
    ])
    const { events } = await store.objects.changes({
      ...configMaps('mb1'),
      sinceRv: manifest.version,
    })
    expect(events).toHaveLength(1)
    const [e] = events
    expect(e!.type).toBe('MODIFIED')
    expect(e!.rv).toBe(r!.outcome === 'written' ? r!.state.rv : -1)
    expect(e!.object.status).toEqual({ phase: 'Ready', observedGeneration: 1 })
    expect(e!.object.metadata.resourceVersion).toBe(String(e!.rv))
    expect(e!.object.metadata.annotations?.['edge.kcp.io/associated']).toBe(
      '[{"kind":"Pod","namespace":"ns1","name":"p"}]'
    )
  })

  it('refuses duplicate keys and too large states before writing anything', async () => {
    const { store, uid } = await setup()
    const dup = await apiError(
      store.projections.putCopyStates('mb1', [
        { key: key('a'), state: { uid: uid('a'), status: {} }, expectedRv: null },
        { key: key('a'), state: { uid: uid('a'), status: {} }, expectedRv: null },
      ])
    )
    expect(dup.code).toBe(400)
    const random = Array.from({ length: 700_000 }, () => Math.random().toString(36)[2]).join('')
    const big = await apiError(
      store.projections.putCopyStates('mb1', [
        { key: key('a'), state: { uid: uid('a'), status: { random } }, expectedRv: null },
      ])
    )
    expect(big.code).toBe(413)
    expect((await store.projections.getCopyStates('mb1', [key('a')])).size).toBe(0)
  })
})

describe('sweeping copy states', () => {
  it('removes the states of copies that left the manifest, keeping live and recent ones', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now })
    const p = t.projections
    const v1 = await p.writeManifest('mb1', {
      desired: [cmEntry('a'), cmEntry('b')],
      expectedVersion: null,
      now: NOW,
    })
    const uid = (name: string) => v1.manifest.entries.find((e) => e.name === name)!.uid
    await p.putCopyStates('mb1', [
      { key: key('a'), state: { uid: uid('a'), status: { a: 1 } }, expectedRv: null },
      { key: key('b'), state: { uid: uid('b'), status: { b: 1 } }, expectedRv: null },
    ])
    await p.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: v1.manifest.version,
      now: NOW,
    })
    await p.writeManifest('gone', { desired: [cmEntry('x')], expectedVersion: null, now: NOW })
    const gone = (await p.getManifest('gone'))!.entries[0]!.uid
    await p.putCopyStates('gone', [
      { key: key('x'), state: { uid: gone, status: {} }, expectedRv: null },
    ])
    await p.deleteManifest('gone')
    // written at the instant the sweep begins: might belong to a copy the Scan missed, so kept
    await t.sweepChangeLog()
    expect((await p.getCopyStates('gone', [key('x')])).size).toBe(1)
    clock.advance(1000)
    await t.sweepChangeLog()
    expect([...(await p.getCopyStates('mb1', [key('a'), key('b')])).keys()]).toEqual([
      '/configmaps/ns1/a',
    ])
    expect((await p.getCopyStates('gone', [key('x')])).size).toBe(0)
  })
})
