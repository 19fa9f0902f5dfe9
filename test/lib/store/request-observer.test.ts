/**
 * The request observer sees every attempt of a real client with its result: `ok`, `conditional`
 * for a failed ConditionExpression, `error` for an unreachable endpoint (once per SDK attempt);
 * throttling errors by name are `throttled`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyStoreError, observeStoreRequests } from '../../../lib/store/request-observer.ts'
import { unreachableStore } from '../../helpers/closed-port.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

const named = (name: string) => Object.assign(new Error('x'), { name })

describe('observeStoreRequests', () => {
  it('reports ok and conditional attempts by command', async () => {
    const seen: string[] = []
    observeStoreRequests(t.client, (command, result) => seen.push(`${command} ${result}`))
    await t.kv.put('ns', 'k', 1, null)
    await expect(t.kv.put('ns', 'k', 2, null)).rejects.toMatchObject({ code: 409 })
    await t.kv.get('ns', 'k')
    expect(seen).toEqual(['PutItem ok', 'PutItem conditional', 'GetItem ok'])
  })

  it('reports each attempt against an endpoint that refuses connections as an error', async () => {
    const down = await unreachableStore('x', 2)
    const seen: string[] = []
    observeStoreRequests(down.client, (command, result) => seen.push(`${command} ${result}`))
    await expect(down.kv.get('ns', 'k')).rejects.toThrow()
    expect(seen).toEqual(['GetItem error', 'GetItem error'])
    down.close()
  })

  it.each([
    ['ProvisionedThroughputExceededException', 'throttled'],
    ['ThrottlingException', 'throttled'],
    ['RequestLimitExceeded', 'throttled'],
    ['ConditionalCheckFailedException', 'conditional'],
    ['ValidationException', 'error'],
  ])('classifies %s as %s', (name, result) => {
    expect(classifyStoreError(named(name))).toBe(result)
  })
})
