import { afterEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { MAX_OBJECT_BYTES, serializeBody } from '../../../lib/store/body-codec.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import {
  apiError,
  cmKey,
  configMap,
  configMaps,
  faultHook,
  manualClock,
  putsInto,
  storeWithReplacedPut,
} from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function randomText(length: number): string {
  const bytes = new Uint8Array(length)
  for (let at = 0; at < length; at += 65_536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(length, at + 65_536)))
  }
  const out: string[] = []
  for (const byte of bytes) out.push(ALPHABET[byte & 63]!)
  return out.join('')
}

/** A ConfigMap whose stored JSON is exactly `bytes` long, filled with random (incompressible) text. */
function bigConfigMap(name: string, bytes: number): KubeObject {
  const obj = configMap(name, 'default', { blob: '' })
  const fill = bytes - new TextEncoder().encode(serializeBody(obj)).length
  return { ...obj, data: { blob: randomText(fill) } }
}

describe('large objects', () => {
  it('stores and reads back a 1 MiB object of random data through chunk items', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const obj = bigConfigMap('big', MAX_OBJECT_BYTES)
    counter.reset()
    const created = await t.objects.create(cmKey('big'), obj)
    // counter, >= 3 chunks, head, log
    expect(counter.snapshot().PutItem).toBeGreaterThanOrEqual(5)
    const read = await t.objects.get(cmKey('big'))
    expect(read).toEqual(created)
    expect(read?.data).toEqual(obj.data)
    expect((await t.objects.list(configMaps('c1'))).items).toEqual([created])
    expect((await t.objects.list(configMaps('*'))).items).toEqual([created])
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events[0]?.object).toEqual(created)
  })

  it('updates and deletes a large object, logging its full body', async () => {
    t = await createTestStore()
    const v1 = await t.objects.create(cmKey('big'), bigConfigMap('big', 600_000))
    const body2 = bigConfigMap('big', 700_000)
    const v2 = await t.objects.update(cmKey('big'), body2, v1.metadata.resourceVersion!)
    expect((await t.objects.get(cmKey('big')))?.data).toEqual(body2.data)
    const gone = await t.objects.delete(cmKey('big'))
    expect(gone.data).toEqual(body2.data)
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
    expect(events[1]?.object).toEqual(v2)
    expect(events[2]?.object).toEqual(gone)
  })

  it('refuses an object over 1 MiB with 413 and stores nothing', async () => {
    t = await createTestStore()
    const err = await apiError(
      t.objects.create(cmKey('huge'), bigConfigMap('huge', MAX_OBJECT_BYTES + 1))
    )
    expect(err.code).toBe(413)
    expect(err.reason).toBe('RequestEntityTooLarge')
    expect(err.message).toBe(
      'configmaps "huge" is too large: 1048577 bytes of JSON exceeds the limit of 1048576 bytes (1 MiB)'
    )
    expect(await t.objects.currentRv()).toBe(0)
    expect(await t.objects.get(cmKey('huge'))).toBeUndefined()
    expect((await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })).events).toEqual([])
  })

  it('refuses an update over 1 MiB and keeps the stored object', async () => {
    t = await createTestStore()
    const v1 = await t.objects.create(cmKey('a'), configMap('a'))
    const err = await apiError(
      t.objects.update(
        cmKey('a'),
        bigConfigMap('a', 2 * MAX_OBJECT_BYTES),
        v1.metadata.resourceVersion!
      )
    )
    expect(err.code).toBe(413)
    expect(await t.objects.get(cmKey('a'))).toEqual(v1)
  })
})

describe('retrying writes', () => {
  it('a create whose response was lost is sent again and recognized as its own, with one ADDED event', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    faults.fail('PutItem', 'after', putsInto('o#'))
    const created = await t.objects.create(cmKey('a'), configMap('a'))
    expect(created.metadata.resourceVersion).toBe('1')
    expect(await t.objects.get(cmKey('a'))).toEqual(created)
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => `${e.type}@${e.rv}`)).toEqual(['ADDED@1'])
    // Calling create again is another attempt, not a retry: the name is taken.
    expect((await apiError(t.objects.create(cmKey('a'), configMap('a')))).reason).toBe(
      'AlreadyExists'
    )
  })

  it('an update whose response was lost is recognized as its own by its rv, not by its body', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    const v1 = await t.objects.create(cmKey('a'), configMap('a', 'default', { v: '1' }))
    faults.fail('PutItem', 'after', putsInto('o#'))
    const v2 = await t.objects.update(cmKey('a'), { ...v1, data: { v: '2' } }, '1')
    expect(v2.metadata.resourceVersion).toBe('2')
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => `${e.type}@${e.rv}`)).toEqual(['ADDED@1', 'MODIFIED@2'])
  })

  it('a stale update whose body equals the stored one is a conflict, not an acknowledgement', async () => {
    t = await createTestStore()
    const v1 = await t.objects.create(cmKey('a'), configMap('a', 'default', { n: '0' }))
    const same = { ...v1, data: { n: '1' } }
    await t.objects.update(cmKey('a'), same, '1')
    const stale = await apiError(t.objects.update(cmKey('a'), same, '1'))
    expect(stale.code).toBe(409)
    expect(stale.reason).toBe('Conflict')
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED'])
  })

  it('a lost response followed by another writer is 504 Timeout (outcome unknown), not a success', async () => {
    // Our put landed (rv 2); another writer replaces it before we learn the outcome.
    const { store, v1 } = await storeWithReplacedPut(() => new Error('injected lost response'))
    t = store
    const err = await apiError(store.objects.update(cmKey('a'), { ...v1, data: { v: '2' } }, '1'))
    expect(err.code).toBe(504)
    expect(err.reason).toBe('Timeout')
    expect((await store.objects.get(cmKey('a')))?.data).toEqual({ v: 'other' })
  })

  it('a change-log put that failed is sent again: the update succeeds and is logged once', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    const v1 = await t.objects.create(cmKey('a'), configMap('a', 'default', { v: '1' }))
    faults.fail('PutItem', 'before', putsInto('l#'))
    const v2 = await t.objects.update(cmKey('a'), { ...v1, data: { v: '2' } }, '1')
    expect(v2.metadata.resourceVersion).toBe('2')
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(events.map((e) => `${e.type}@${e.rv}`)).toEqual(['ADDED@1', 'MODIFIED@2'])
    // A repeated call with the old rv is a new attempt and a conflict.
    const stale = await apiError(t.objects.update(cmKey('a'), { ...v1, data: { v: '2' } }, '1'))
    expect(stale.reason).toBe('Conflict')
  })

  it('a create that failed before reaching the table succeeds when repeated', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    // Three failed sends: the store gives up and the caller sees the error.
    for (let i = 0; i < 3; i++) faults.fail('PutItem', 'before', putsInto('o#'))
    await expect(t.objects.create(cmKey('a'), configMap('a'))).rejects.toThrow()
    expect(await t.objects.get(cmKey('a'))).toBeUndefined()
    const created = await t.objects.create(cmKey('a'), configMap('a'))
    expect(await t.objects.get(cmKey('a'))).toEqual(created)
    expect((await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })).events).toHaveLength(1)
  })

  it('deletes the chunks of a large write that lost a race at once', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now })
    const v1 = await t.objects.create(cmKey('big'), bigConfigMap('big', 500_000))
    const lost = await apiError(t.objects.update(cmKey('big'), bigConfigMap('big', 500_000), '999'))
    expect(lost.reason).toBe('Conflict')
    clock.advance(24 * 60 * 60_000)
    expect((await t.sweepChangeLog()).blobsDeleted).toBe(0)
    expect(await t.objects.get(cmKey('big'))).toEqual(v1)
  })

  it('leaves the chunks of a large write that failed in transit to the sweep', async () => {
    const faults = faultHook()
    const clock = manualClock()
    t = await createTestStore({ fault: faults.hook, now: clock.now })
    for (let i = 0; i < 3; i++) faults.fail('PutItem', 'before', putsInto('o#'))
    await expect(t.objects.create(cmKey('big'), bigConfigMap('big', 500_000))).rejects.toThrow()
    const v1 = await t.objects.create(cmKey('big'), bigConfigMap('big', 500_000))
    // Not yet: unreferenced chunks are kept for a grace period.
    expect((await t.sweepChangeLog()).blobsDeleted).toBe(0)
    clock.advance(24 * 60 * 60_000)
    expect((await t.sweepChangeLog()).blobsDeleted).toBe(1)
    expect(await t.objects.get(cmKey('big'))).toEqual(v1)
  })

  it('a large create whose response was lost keeps its chunks and is recognized as its own', async () => {
    const faults = faultHook()
    const clock = manualClock()
    t = await createTestStore({ fault: faults.hook, now: clock.now })
    const obj = bigConfigMap('big', 800_000)
    faults.fail('PutItem', 'after', putsInto('o#'))
    const again = await t.objects.create(cmKey('big'), obj)
    expect(again.metadata.resourceVersion).toBe('1')
    expect((await t.objects.get(cmKey('big')))?.data).toEqual(obj.data)
    clock.advance(24 * 60 * 60_000)
    expect((await t.sweepChangeLog()).blobsDeleted).toBe(0)
    expect((await t.objects.get(cmKey('big')))?.data).toEqual(obj.data)
  })

  it('a delete that died before logging leaves the object gone; a retry reports NotFound', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    await t.objects.create(cmKey('a'), configMap('a'))
    for (let i = 0; i < 3; i++) faults.fail('PutItem', 'before', putsInto('l#'))
    await expect(t.objects.delete(cmKey('a'))).rejects.toThrow()
    expect(await t.objects.get(cmKey('a'))).toBeUndefined()
    expect((await apiError(t.objects.delete(cmKey('a')))).code).toBe(404)
  })
})
