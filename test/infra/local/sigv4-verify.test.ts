/**
 * The SigV4 check of the local store (infra/local/sigv4-verify.ts): AWS's published `get-vanilla`
 * example verifies; requests the AWS SDK's DynamoDB client signs (a DynamoDB PutItem) verify, and any
 * change to them — body, a signed header, the method, the secret, the access key id, the clock
 * past 15 minutes, an unsigned or presigned request — is refused with the error DynamoDB names.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PutItemCommand } from '@aws-sdk/client-dynamodb'
import { describe, expect, it } from 'vitest'
import { type SignedRequest, verifySigV4 } from '../../../infra/local/sigv4-verify.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'

const EXAMPLE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
}

describe('verifySigV4', () => {
  it("accepts AWS's get-vanilla example and refuses it with another secret", () => {
    const req: SignedRequest = {
      method: 'GET',
      url: '/',
      rawHeaders: [
        'Host',
        'example.amazonaws.com',
        'X-Amz-Date',
        '20150830T123600Z',
        'Authorization',
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
      ],
      body: Buffer.alloc(0),
    }
    const opts = { service: 'service', now: new Date('2015-08-30T12:36:00Z') }
    expect(verifySigV4(req, EXAMPLE, opts)).toBeUndefined()
    expect(verifySigV4(req, { ...EXAMPLE, secretAccessKey: 'other' }, opts)).toMatchObject({
      type: 'InvalidSignatureException',
    })
  })
})

const KEY = { accessKeyId: 'EPLOCAL0123456789ABCDEF', secretAccessKey: 'a'.repeat(64) }

type Captured = SignedRequest & { at: number; authorization: string }

/** A PutItem exactly as the AWS SDK's DynamoDB client sends it, signed with `key`. */
async function sdkSigned(key = KEY): Promise<Captured> {
  let captured: Captured | undefined
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      captured = {
        at: Date.now(),
        authorization: req.headers.authorization ?? '',
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' })
      res.end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: key,
    maxAttempts: 1,
  })
  try {
    await client.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'x' } } }))
  } finally {
    client.destroy()
    await new Promise((r) => server.close(r))
  }
  if (!captured) throw new Error('the client sent nothing')
  return captured
}

const minutes = (req: Captured, n: number) => ({ now: new Date(req.at + n * 60_000) })

const withHeader = (r: SignedRequest, name: string, value: string): SignedRequest => {
  const raw = [...r.rawHeaders]
  const i = raw.findIndex((h, n) => n % 2 === 0 && h.toLowerCase() === name)
  raw[i + 1] = value
  return { ...r, rawHeaders: raw }
}

describe('verifySigV4 against the AWS SDK signer', () => {
  it('accepts what the SDK signs with the key', async () => {
    const req = await sdkSigned()
    expect(req.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=EPLOCAL/)
    expect(verifySigV4(req, KEY, minutes(req, 0))).toBeUndefined()
    // Within the 15 minutes either way.
    expect(verifySigV4(req, KEY, minutes(req, 14))).toBeUndefined()
    expect(verifySigV4(req, KEY, minutes(req, -14))).toBeUndefined()
  })

  it('refuses another access key id as an unrecognized client', async () => {
    const req = await sdkSigned({ ...KEY, accessKeyId: 'AKIAOTHERKEY0000' })
    expect(verifySigV4(req, KEY, minutes(req, 0))).toMatchObject({
      type: 'UnrecognizedClientException',
    })
  })

  it('refuses a signature made with another secret', async () => {
    const req = await sdkSigned({ ...KEY, secretAccessKey: 'b'.repeat(64) })
    expect(verifySigV4(req, KEY, minutes(req, 0))).toMatchObject({
      type: 'InvalidSignatureException',
      message: expect.stringContaining('does not match'),
    })
  })

  it('refuses a changed body, signed header or method', async () => {
    const req = await sdkSigned()
    const changed: SignedRequest[] = [
      { ...req, body: Buffer.from(req.body.toString().replace('"x"', '"admin"')) },
      withHeader(req, 'x-amz-target', 'DynamoDB_20120810.DeleteItem'),
      { ...req, method: 'PUT' },
      { ...req, url: '/?a=b' },
    ]
    for (const r of changed)
      expect(verifySigV4(r, KEY, minutes(req, 0))).toMatchObject({
        type: 'InvalidSignatureException',
      })
  })

  it('refuses a request signed more than 15 minutes away from now', async () => {
    const req = await sdkSigned()
    for (const offset of [16, -16])
      expect(verifySigV4(req, KEY, minutes(req, offset))).toMatchObject({
        type: 'InvalidSignatureException',
        message: /expired/,
      })
  })

  it('refuses unsigned and presigned requests', async () => {
    const req = await sdkSigned()
    const unsigned = {
      ...req,
      rawHeaders: req.rawHeaders.filter(
        (_, i, all) => (all[i - (i % 2)] ?? '').toLowerCase() !== 'authorization'
      ),
    }
    expect(verifySigV4(unsigned, KEY, minutes(req, 0))).toMatchObject({
      type: 'MissingAuthenticationTokenException',
    })
    expect(
      verifySigV4({ ...req, url: '/?X-Amz-Signature=00&X-Amz-Credential=x' }, KEY, minutes(req, 0))
    ).toMatchObject({ type: 'InvalidSignatureException', message: /presigned/ })
  })

  it('refuses a header that claims another body hash', async () => {
    const req = await sdkSigned()
    const raw = [...req.rawHeaders, 'x-amz-content-sha256', '0'.repeat(64)]
    expect(verifySigV4({ ...req, rawHeaders: raw }, KEY, minutes(req, 0))).toMatchObject({
      type: 'InvalidSignatureException',
    })
  })
})
