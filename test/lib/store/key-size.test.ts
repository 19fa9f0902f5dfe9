/**
 * Keys too long for DynamoDB (partition key 2048 bytes, sort key 1024): reads of objects, key-value
 * entries and copy states under such keys answer absent without a request, writes are refused with
 * a clear 4xx before anything is sent (no resourceVersion is taken), and a continue token naming a
 * key outside its list is 400 instead of reaching the Query.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { encodeContinue } from '../../../lib/store/continue-token.ts'
import { keyFits, objectKeyFits } from '../../../lib/store/key-size.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, cmKey, configMap, configMaps } from './fixtures.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

const LONG = 'a'.repeat(3000)
const counter = createRequestCounter()
let t: TestStore
beforeAll(async () => {
  t = await createTestStore({ counter })
  await t.objects.create(cmKey('x'), configMap('x'))
})
afterAll(() => t.close())
beforeEach(() => counter.reset())

describe('key sizes', () => {
  it('measures keys in UTF-8 bytes', () => {
    expect(keyFits('p', 'a'.repeat(1024))).toBe(true)
    expect(keyFits('p', 'a'.repeat(1025))).toBe(false)
    expect(keyFits('p', 'é'.repeat(512))).toBe(true)
    expect(keyFits('p', 'é'.repeat(513))).toBe(false)
    expect(keyFits('p'.repeat(2049), 's')).toBe(false)
    expect(objectKeyFits(cmKey('a'.repeat(253)))).toBe(true)
    expect(objectKeyFits(cmKey(LONG))).toBe(false)
    expect(objectKeyFits(cmKey('x', LONG))).toBe(false)
  })
})

describe('objects under a key too long to store', () => {
  it('are absent to get and list, without a request', async () => {
    expect(await t.objects.get(cmKey(LONG))).toBeUndefined()
    expect(await t.objects.get(cmKey('x', LONG))).toBeUndefined()
    expect(counter.total()).toBe(0)
    const list = await t.objects.list(configMaps('c1', LONG))
    expect(list.items).toEqual([])
    expect(counter.snapshot()).toEqual({ GetItem: 1 }) // the list's resourceVersion only
  })

  it('cannot be created (422 naming the field), updated or deleted (404)', async () => {
    const rv = await t.objects.currentRv()
    counter.reset()
    const created = await apiError(t.objects.create(cmKey(LONG), configMap(LONG)))
    expect(created).toMatchObject({ code: 422, reason: 'Invalid' })
    expect(created.details?.causes).toEqual([
      { reason: 'FieldValueTooLong', field: 'metadata.name', message: expect.any(String) },
    ])
    const inNs = await apiError(t.objects.create(cmKey('x', LONG), configMap('x', LONG)))
    expect(inNs.details?.causes?.[0]?.field).toBe('metadata.namespace')
    const updated = await apiError(t.objects.update(cmKey(LONG), configMap(LONG), '1'))
    expect(updated).toMatchObject({ code: 404, reason: 'NotFound' })
    const deleted = await apiError(t.objects.delete(cmKey('x', LONG)))
    expect(deleted).toMatchObject({ code: 404, reason: 'NotFound' })
    expect(counter.total()).toBe(0)
    expect(await t.objects.currentRv()).toBe(rv)
  })

  it('refuses a continue token naming a key outside its list', async () => {
    const rv = await t.objects.currentRv()
    const q = JSON.stringify(['c1', '', 'configmaps', 'default'])
    const tokens = [
      { pk: 'o#c1#/configmaps', sk: `default/${LONG}` },
      { pk: `o#c1#/configmaps${LONG}`, sk: 'default/x' },
      { pk: 'o#c2#/configmaps', sk: 'default/x' },
      { pk: 'o#c1#/configmaps', sk: 'other/x' },
    ].map((k) => encodeContinue({ v: 1, rv, q, ...k }))
    for (const token of tokens) {
      const err = await apiError(
        t.objects.list({ ...configMaps('c1', 'default'), continue: token })
      )
      expect(err).toMatchObject({ code: 400, message: 'continue key is not valid for this list' })
    }
    const all = JSON.stringify(['*', '', 'configmaps', null])
    const cross = encodeContinue({
      v: 1,
      rv,
      q: all,
      pk: 'p',
      sk: 's',
      gpk: 'o#/secrets',
      gsk: 'x',
    })
    const err = await apiError(t.objects.list({ ...configMaps('*'), continue: cross }))
    expect(err.code).toBe(400)
    expect(counter.snapshot().Query).toBeUndefined()
  })
})

describe('key-value entries under a key too long to store', () => {
  it('are absent to get, list and delete; put is 400', async () => {
    expect(await t.kv.get('ns', LONG)).toBeUndefined()
    expect(await t.kv.list('ns', LONG)).toEqual([])
    await t.kv.delete('ns', LONG)
    expect((await apiError(t.kv.delete('ns', LONG, 1))).reason).toBe('Conflict')
    expect(counter.total()).toBe(0)
    expect(await apiError(t.kv.put('ns', LONG, 1))).toMatchObject({ code: 400 })
    expect(await apiError(t.kv.put(LONG, 'k', 1, null))).toMatchObject({ code: 400 })
    expect(counter.total()).toBe(0)
  })
})

describe('copy states under a key too long to store', () => {
  it('are absent to reads; a write is 400 before anything is written', async () => {
    await t.projections.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: null,
      now: NOW,
    })
    counter.reset()
    const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: LONG }
    expect((await t.projections.getCopyStates('mb1', [key])).size).toBe(0)
    const scope = { group: '', resource: 'configmaps', namespace: LONG }
    expect((await t.projections.listCopyStates('mb1', scope)).size).toBe(0)
    expect(counter.total()).toBe(0)
    const write = { key, state: { uid: 'u', status: {} }, expectedRv: null }
    expect(await apiError(t.projections.putCopyStates('mb1', [write]))).toMatchObject({
      code: 400,
    })
    expect(counter.total()).toBe(0)
  })
})
