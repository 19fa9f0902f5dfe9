/**
 * The local stack's dynalite (infra/local/dynalite-server.ts): tables and items survive a close
 * and a new start in the same folder, two servers get distinct ports, an idle keep-alive
 * connection is not closed by the server (a busy client reusing it must not get a reset), and a
 * close lets the requests in flight answer (dynalite throws, uncaught, a database step that runs
 * after its database closed). With a store key it serves only clients signing with that key:
 * the SDK with another key id or secret, an unsigned or forged raw PutItem and a health GET are
 * 403 with DynamoDB's error types, and nothing of them reaches the table. A client that drops
 * its connection mid-body (a killed workerd) ends only its own request, key or none (dynalite's
 * own listener throws it, uncaught).
 */
import { connect } from 'node:net'
import { join } from 'node:path'
import {
  type DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb'
import { beforeEach, describe, expect, it } from 'vitest'
import { startDynalite } from '../../../infra/local/dynalite-server.ts'
import { generateStoreKey } from '../../../infra/local/store-key.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../../lib/store/ensure-table.ts'
import { TABLE } from '../../../lib/store/table.ts'
import { sendHalfRequest } from '../../helpers/half-sent.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-dyn-')
})

const clientFor = (endpoint: string) =>
  createDynamoClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  })

describe('local dynalite', () => {
  it('keeps tables and items in its folder across a close and a new start', async () => {
    const first = await startDynalite({ path: join(dir, 'db') })
    expect(first.endpoint).toBe(`http://127.0.0.1:${first.port}`)
    const c1 = clientFor(first.endpoint)
    expect((await ensureTable(c1, TABLE, { tableName: 'persist' })).created).toBe(true)
    await createDynamoStore({ client: c1, tableName: 'persist' }).kv.put('notes', 'n1', {
      text: 'hello',
    })
    c1.destroy()
    await first.close()
    await first.close()

    const second = await startDynalite({ path: join(dir, 'db') })
    const c2 = clientFor(second.endpoint)
    try {
      expect((await c2.send(new ListTablesCommand({}))).TableNames).toEqual(['persist'])
      expect((await ensureTable(c2, TABLE, { tableName: 'persist' })).created).toBe(false)
      const got = await createDynamoStore({ client: c2, tableName: 'persist' }).kv.get<{
        text: string
      }>('notes', 'n1')
      expect(got?.value).toEqual({ text: 'hello' })
    } finally {
      c2.destroy()
      await second.close()
    }
  })

  it("keeps an idle keep-alive connection open past Node's default 5 s", async () => {
    const db = await startDynalite({})
    const socket = connect(db.port, '127.0.0.1')
    try {
      let ended = false
      socket.on('end', () => {
        ended = true
      })
      const ask = () =>
        new Promise<string>((resolve) => {
          socket.once('data', (d) => resolve(d.toString()))
          socket.write('GET / HTTP/1.1\r\nHost: local\r\nConnection: keep-alive\r\n\r\n')
        })
      expect(await ask()).toMatch(/^HTTP\/1\.1 /)
      // Node's default closes an idle connection 5 s after its last answer, on a timer checked
      // about once a second (6.0 s here without the setting).
      await new Promise((r) => setTimeout(r, 7_000))
      expect(ended).toBe(false)
      expect(await ask()).toMatch(/^HTTP\/1\.1 /)
    } finally {
      socket.destroy()
      await db.close()
    }
  })

  it('picks distinct free ports for two servers', async () => {
    const a = await startDynalite({})
    const b = await startDynalite({})
    try {
      expect(a.port).not.toBe(b.port)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('answers the requests in flight when closed under load', async () => {
    const db = await startDynalite({})
    const client = clientFor(db.endpoint)
    const uncaught: unknown[] = []
    const onUncaught = (err: unknown) => uncaught.push(err)
    process.on('uncaughtException', onUncaught)
    try {
      await ensureTable(client, TABLE, { tableName: 'busy' })
      const key = { pk: { S: 'p' }, sk: { S: 's' } }
      // Each action is several database steps (the table, then the item): a close between two
      // of them used to leave the second to a closed database.
      const ask = (i: number): Promise<unknown> =>
        i % 2 === 0
          ? client.send(new GetItemCommand({ TableName: 'busy', Key: key }))
          : client.send(
              new QueryCommand({
                TableName: 'busy',
                KeyConditionExpression: 'pk = :p',
                ExpressionAttributeValues: { ':p': { S: 'p' } },
              })
            )
      const inFlight = Array.from({ length: 120 }, (_, i) =>
        ask(i).then(
          () => 'answered',
          (err: Error) => `${err.name}: ${err.message}`
        )
      )
      // Close once the server is answering, with the rest still in flight.
      await Promise.race(inFlight)
      await db.close()
      const outcomes = await Promise.all(inFlight)
      // Those the server began are answered; later ones are refused, or reset while their
      // request was still arriving. None may be cut off mid-action: dynalite would throw.
      expect(outcomes).toContain('answered')
      for (const o of outcomes)
        expect(o).toMatch(/^(answered|.*ECONNREFUSED|.*ECONNRESET|.*socket hang up)/)
      await new Promise((r) => setTimeout(r, 50))
      expect(uncaught).toEqual([])
    } finally {
      process.off('uncaughtException', onUncaught)
      client.destroy()
      await db.close()
    }
  })

  it('lets a request whose body is still arriving finish before it closes', async () => {
    const db = await startDynalite({})
    const socket = connect(db.port, '127.0.0.1')
    const body = JSON.stringify({})
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
      const answer = new Promise<string>((resolve) => {
        let text = ''
        socket.on('data', (d) => {
          text += d.toString()
        })
        socket.on('close', () => resolve(text))
      })
      socket.write(
        'POST / HTTP/1.1\r\nHost: local\r\nContent-Type: application/x-amz-json-1.0\r\n' +
          `X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: ${body.length}\r\n\r\n`
      )
      // The server has the request's head: the connection is busy, not idle.
      await new Promise((r) => setTimeout(r, 50))
      let closed = false
      const closing = db.close().then(() => {
        closed = true
      })
      await new Promise((r) => setTimeout(r, 100))
      expect(closed).toBe(false)
      socket.write(body)
      // dynalite answers (here: the request is unsigned) and the connection then ends.
      expect(await answer).toMatch(/^HTTP\/1\.1 [24]\d\d /)
      await closing
      expect(closed).toBe(true)
    } finally {
      socket.destroy()
      await db.close()
    }
  })
})

describe('local dynalite and cut requests', () => {
  it('a client gone mid-body ends only its own request, with or without a key', async () => {
    for (const key of [undefined, generateStoreKey()]) {
      const db = await startDynalite(key ? { key } : {})
      try {
        await sendHalfRequest(db.port)
        await sendHalfRequest(db.port)
        // Still serving (unsigned: 403 with a key, dynalite's own answer without one).
        const res = await fetch(`${db.endpoint}/`)
        expect(res.status).toBe(key ? 403 : 200)
      } finally {
        await db.close()
      }
    }
  })
})

describe('local dynalite with a store key', () => {
  const KEY = generateStoreKey()
  const PUT = JSON.stringify({
    TableName: 'keyed',
    Item: { pk: { S: 'tk#x' }, sk: { S: 'admin' } },
  })

  it('serves clients that sign with the key, and refuses every other request with 403', async () => {
    const db = await startDynalite({ key: KEY })
    const good = createDynamoClient({
      region: 'us-east-1',
      endpoint: db.endpoint,
      credentials: KEY,
    })
    const clients = {
      local: clientFor(db.endpoint),
      otherSecret: createDynamoClient({
        region: 'us-east-1',
        endpoint: db.endpoint,
        credentials: { ...KEY, secretAccessKey: generateStoreKey().secretAccessKey },
      }),
    }
    try {
      await ensureTable(good, TABLE, { tableName: 'keyed' })
      const store = createDynamoStore({ client: good, tableName: 'keyed' })
      await store.kv.put('notes', 'n1', { text: 'signed' })
      expect((await store.kv.get<{ text: string }>('notes', 'n1'))?.value).toEqual({
        text: 'signed',
      })

      const refused = async (c: DynamoDBClient) =>
        c.send(new ListTablesCommand({})).then(
          () => 'served',
          (e: Error & { $metadata?: { httpStatusCode?: number } }) =>
            `${e.$metadata?.httpStatusCode} ${e.name}`
        )
      expect(await refused(clients.local)).toBe('403 UnrecognizedClientException')
      expect(await refused(clients.otherSecret)).toBe('403 InvalidSignatureException')

      // A raw PutItem, as any local process could send it: unsigned, or with a made-up signature.
      const raw = (authorization?: string) =>
        fetch(db.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': 'DynamoDB_20120810.PutItem',
            'x-amz-date': '20261202T080000Z',
            ...(authorization ? { authorization } : {}),
          },
          body: PUT,
        })
      const unsigned = await raw()
      expect(unsigned.status).toBe(403)
      expect(await unsigned.json()).toMatchObject({
        __type: 'com.amazon.coral.service#MissingAuthenticationTokenException',
      })
      const forged = await raw(
        'AWS4-HMAC-SHA256 Credential=local/20261202/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00'
      )
      expect(forged.status).toBe(403)
      expect(await forged.json()).toMatchObject({
        __type: 'com.amazon.coral.service#UnrecognizedClientException',
      })
      expect((await fetch(db.endpoint)).status).toBe(403)
      // Nothing of it reached the table.
      const items = await good.send(new ScanCommand({ TableName: 'keyed' }))
      expect(items.Items?.some((i) => i.sk?.S === 'admin')).toBe(false)
    } finally {
      for (const c of [good, ...Object.values(clients)]) c.destroy()
      await db.close()
    }
  })
})
