import { afterEach, describe, expect, it } from 'vitest'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps, faultHook } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('DynamoDB client hooks', () => {
  it('counts the requests each store operation sends', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    counter.reset()
    await t.objects.create(cmKey('a'), configMap('a'))
    expect(counter.snapshot()).toEqual({ UpdateItem: 1, PutItem: 2 })
    counter.reset()
    await t.objects.get(cmKey('a'))
    expect(counter.snapshot()).toEqual({ GetItem: 1 })
    counter.reset()
    await t.objects.list(configMaps('c1'))
    expect(counter.snapshot()).toEqual({ GetItem: 1, Query: 1 })
  })

  it('lets a fault hook fail a command before it is sent', async () => {
    const faults = faultHook()
    t = await createTestStore({ fault: faults.hook })
    faults.fail('UpdateItem', 'before')
    await expect(t.objects.create(cmKey('a'), configMap('a'))).rejects.toThrow(
      'injected UpdateItem'
    )
    expect(await t.objects.currentRv()).toBe(0)
  })
})
