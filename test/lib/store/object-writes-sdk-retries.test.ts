/**
 * Which layer sends a store command again (lib/store/object-writes.ts): the SDK's retry loop
 * resends throttled, 5xx and network failures; the store does not repeat what that loop has seen,
 * and a refused condition after the SDK sent again is an unknown outcome (504), for a write and a
 * delete alike. The errors the SDK would raise are injected with its `$metadata.attempts`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { FaultCall } from '../../../lib/store/dynamo-client.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import {
  apiError,
  cmKey,
  configMap,
  faultHook,
  putsInto,
  storeWithReplacedPut,
} from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** An error as the SDK's retry loop gives it back after `attempts` sends. */
const sdkError = (name: string, status: number, attempts: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status, attempts } })

describe('store resends on top of the SDK', () => {
  it('does not send again a put the SDK already sent again (503 after its attempts)', async () => {
    const faults = faultHook()
    let heads = 0
    const fault = (call: FaultCall) => {
      if (call.phase === 'before' && putsInto('o#')(call.input as Record<string, unknown>)) heads++
      return faults.hook(call)
    }
    t = await createTestStore({ fault })
    faults.on(
      'PutItem',
      'before',
      () => {
        throw sdkError('ServiceUnavailable', 503, 3)
      },
      putsInto('o#')
    )
    await expect(t.objects.create(cmKey('a'), configMap('a'))).rejects.toThrow('ServiceUnavailable')
    expect(heads).toBe(1)
    expect(await t.objects.get(cmKey('a'))).toBeUndefined()
  })

  it('answers a refused update after the SDK sent it again with 504, not a conflict', async () => {
    // Our first send landed (rv 2) and was replaced; the SDK's second send was refused.
    const { store, v1 } = await storeWithReplacedPut(() =>
      sdkError('ConditionalCheckFailedException', 400, 2)
    )
    t = store
    const err = await apiError(store.objects.update(cmKey('a'), { ...v1, data: { v: '2' } }, '1'))
    expect([err.code, err.reason]).toEqual([504, 'Timeout'])
  })

  it('answers a refused delete after the SDK sent it again with 504, not NotFound', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    await t.objects.create(cmKey('a'), configMap('a'))
    faults.on('DeleteItem', 'after', () => {
      // The first send deleted the object; the SDK's second send found nothing to delete.
      throw sdkError('ConditionalCheckFailedException', 400, 2)
    })
    const err = await apiError(t.objects.delete(cmKey('a')))
    expect([err.code, err.reason]).toEqual([504, 'Timeout'])
    expect(await t.objects.get(cmKey('a'))).toBeUndefined()
  })
})
