/**
 * Every request attempt is a subrequest: a DynamoDB command the SDK sends twice (a 500, then an
 * answer) counts twice, in the invocation that sent it; a plain fetch goes through the same gate
 * with budgetedFetch, which reads the body before freeing its slot. Outside an invocation nothing
 * is counted.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { GetItemCommand } from '@aws-sdk/client-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentInvocation, runInvocation } from '../../../lib/budget/frames.ts'
import { budgetedFetch } from '../../../lib/budget/subrequest.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'

let server: Server
let url = ''
let answered = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    answered++
    if (req.url === '/not-modified') {
      res.writeHead(304).end()
      return
    }
    if (req.url === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello')
      return
    }
    // DynamoDB: every other request fails once with a 500, then answers an empty GetItem.
    if (answered % 2 === 1) {
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' })
      res.end(JSON.stringify({ __type: 'InternalServerError', message: 'try again' }))
      return
    }
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('subrequests', () => {
  it('counts each attempt of a command the SDK retries', async () => {
    answered = 0
    const client = createDynamoClient({
      region: 'us-east-1',
      endpoint: url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 3,
    })
    const get = () =>
      client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'x' }, sk: { S: '-' } } }))
    const stats = await runInvocation('api', {}, async () => {
      const out = await get()
      expect(out.Item).toBeUndefined()
      return currentInvocation()!.stats()
    })
    expect(stats.ops).toEqual({ GetItem: 2 })
    await get()
    expect(answered).toBe(4)
    client.destroy()
  })

  it('counts and gates a plain fetch, reading its body', async () => {
    const [text, status, stats] = await runInvocation('api', {}, async () => {
      const res = await budgetedFetch(`${url}/text`)
      const again = await budgetedFetch(`${url}/not-modified`)
      return [await res.text(), again.status, currentInvocation()!.stats()] as const
    })
    expect([text, status, stats.ops]).toEqual(['hello', 304, { fetch: 2 }])
  })
})
