import { afterEach, describe, expect, it } from 'vitest'
import { createDynamoClient, onAttempt } from '../../../lib/store/dynamo-client.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { decodeBase64 } from '../../../lib/store/sdk-codecs.ts'
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

  it("takes the runtime's codecs, drops the SDK's logging step, and tells listeners added late", async () => {
    const client = createDynamoClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9' })
    expect(client.config.base64Decoder).toBe(decodeBase64)
    expect(client.middlewareStack.identify().join('\n')).not.toContain('loggerMiddleware')
    client.destroy()
    // The middleware stack is resolved once per command; a listener registered after the first
    // request is still told of the next ones.
    t = await createTestStore()
    await t.kv.put('ns', 'a', 1, null)
    const seen: string[] = []
    onAttempt(t.client, (op, e) => seen.push(`${op} ${e === undefined ? 'ok' : 'failed'}`))
    await t.kv.get('ns', 'a')
    expect(seen).toEqual(['GetItem ok'])
  })
})
