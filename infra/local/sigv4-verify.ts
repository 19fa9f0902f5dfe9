/**
 * Verifies an AWS Signature Version 4 `Authorization` header (AWS4-HMAC-SHA256) against one known
 * key, as DynamoDB would: the local stack's dynalite (dynalite-server.ts) serves only requests
 * signed with the stack's store key (store-key.ts). The canonical request is rebuilt from what
 * arrived — method, path (normalized and URI-escaped as the AWS SDK does), query, the headers
 * `SignedHeaders` names (values trimmed, inner whitespace collapsed, repeated ones joined by
 * commas) and the SHA-256 of the body — and its HMAC chain is computed with the key's secret and
 * compared in constant time. Rules: the credential's access key id must be the key's
 * (`UnrecognizedClientException` otherwise); `host` and `x-amz-date` must be signed; the
 * credential's date must be the day of `x-amz-date`, which must lie within 15 minutes of now;
 * a signed `x-amz-content-sha256` must be the body's hash (no `UNSIGNED-PAYLOAD`); presigned
 * query strings are refused. Any other failure is an `InvalidSignatureException`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export type SigningKey = { accessKeyId: string; secretAccessKey: string }

export type SignedRequest = {
  method: string
  /** The request-target as received: path and query. */
  url: string
  /** Node's rawHeaders: name, value, name, value... */
  rawHeaders: string[]
  body: Buffer
}

export type SigV4Refusal = {
  type:
    | 'UnrecognizedClientException'
    | 'InvalidSignatureException'
    | 'MissingAuthenticationTokenException'
  message: string
}

export type SigV4Options = { now?: Date; service?: string; maxSkewMs?: number }

const ALGORITHM = 'AWS4-HMAC-SHA256'
const MAX_SKEW_MS = 15 * 60_000

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** encodeURIComponent plus the characters RFC 3986 reserves that it leaves alone. */
function escapeUri(s: string): string {
  return encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/** The SDK's canonical path: `.` and `..` removed, then each segment escaped. */
function canonicalPath(path: string): string {
  const segments: string[] = []
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') segments.pop()
    else segments.push(seg)
  }
  const joined = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${
    segments.length > 0 && path.endsWith('/') ? '/' : ''
  }`
  return escapeUri(joined).replace(/%2F/g, '/')
}

function canonicalQuery(query: string): string {
  const pairs = [...new URLSearchParams(query)]
    .filter(([k]) => k.toLowerCase() !== 'x-amz-signature')
    .map(([k, v]) => [escapeUri(k), escapeUri(v)] as const)
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
  return pairs.map(([k, v]) => `${k}=${v}`).join('&')
}

/** Each header's values in arrival order, by lowercase name. */
function headerValues(raw: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase()
    const values = out.get(name) ?? []
    values.push((raw[i + 1] ?? '').trim().replace(/\s+/g, ' '))
    out.set(name, values)
  }
  return out
}

/** `Credential=...`, `SignedHeaders=...`, `Signature=...` of an Authorization header. */
function authParams(header: string): Record<string, string> | undefined {
  if (!header.startsWith(`${ALGORITHM} `)) return undefined
  const params: Record<string, string> = {}
  for (const part of header.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=')
    if (eq > 0) params[part.slice(0, eq).trim()] = part.slice(eq + 1).trim()
  }
  return params
}

/** `20150830T123600Z` as a time, or undefined. */
function amzTime(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value)
  if (!m) return undefined
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[]
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s)
}

type Signing = {
  method: string
  path: string
  query: string
  headers: Map<string, string[]>
  signedHeaders: string
  bodyHash: string
  amzDate: string
  /** Day, region, service. */
  scope: [string, string, string]
  secret: string
}

/** The HMAC a signer holding `secret` computes for the canonical request. */
function expectedSignature(s: Signing): Buffer {
  const canonicalHeaders = s.signedHeaders
    .split(';')
    .map((n) => `${n}:${(s.headers.get(n) ?? []).join(',')}\n`)
    .join('')
  const canonical = [
    s.method.toUpperCase(),
    canonicalPath(s.path),
    canonicalQuery(s.query),
    canonicalHeaders,
    s.signedHeaders,
    s.bodyHash,
  ].join('\n')
  const [day, ...rest] = s.scope
  const toSign = `${ALGORITHM}\n${s.amzDate}\n${[...s.scope, 'aws4_request'].join('/')}\n${sha256(canonical)}`
  let signing: Buffer = hmac(`AWS4${s.secret}`, day)
  for (const part of [...rest, 'aws4_request']) signing = hmac(signing, part)
  return hmac(signing, toSign)
}

const invalid = (message: string): SigV4Refusal => ({ type: 'InvalidSignatureException', message })

/** Undefined when `req` is signed with `key`; otherwise why not, as DynamoDB would say it. */
export function verifySigV4(
  req: SignedRequest,
  key: SigningKey,
  opts: SigV4Options = {}
): SigV4Refusal | undefined {
  const headers = headerValues(req.rawHeaders)
  const authorization = headers.get('authorization')
  const q = req.url.indexOf('?')
  const path = q < 0 ? req.url : req.url.slice(0, q)
  const query = q < 0 ? '' : req.url.slice(q + 1)
  if (/(^|&)x-amz-(algorithm|credential|signature)=/i.test(query))
    return invalid('presigned requests are not accepted here; sign the Authorization header')
  if (authorization?.length !== 1)
    return {
      type: 'MissingAuthenticationTokenException',
      message: 'Request is missing Authentication Token',
    }
  const params = authParams(authorization[0] ?? '')
  const credential = params?.Credential?.split('/')
  const signedHeaders = params?.SignedHeaders
  const signature = params?.Signature
  if (credential?.length !== 5 || !signedHeaders || !signature)
    return invalid(
      `the Authorization header is not ${ALGORITHM} with Credential, SignedHeaders and Signature`
    )
  const [accessKeyId, day = '', region = '', service = '', terminator] = credential
  if (accessKeyId !== key.accessKeyId)
    return {
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    }
  if (terminator !== 'aws4_request' || service !== (opts.service ?? 'dynamodb'))
    return invalid(
      `the credential scope must be <date>/<region>/${opts.service ?? 'dynamodb'}/aws4_request`
    )
  const names = signedHeaders.split(';')
  if (!names.includes('host') || !names.includes('x-amz-date'))
    return invalid('host and x-amz-date must be signed')
  const amzDate = headers.get('x-amz-date')?.[0] ?? ''
  const at = amzTime(amzDate)
  if (at === undefined || amzDate.slice(0, 8) !== day)
    return invalid('x-amz-date must be a basic ISO 8601 time on the credential date')
  const now = (opts.now ?? new Date()).getTime()
  if (Math.abs(now - at) > (opts.maxSkewMs ?? MAX_SKEW_MS))
    return invalid(`Signature expired: ${amzDate} is more than 15 minutes from the server's time`)
  const bodyHash = sha256(req.body)
  const declared = headers.get('x-amz-content-sha256')?.[0]
  if (declared !== undefined && declared !== bodyHash)
    return invalid('x-amz-content-sha256 is not the hash of the body')
  const expected = expectedSignature({
    method: req.method,
    path,
    query,
    headers,
    signedHeaders,
    bodyHash,
    amzDate,
    scope: [day, region, service],
    secret: key.secretAccessKey,
  })
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return invalid('The request signature we calculated does not match the signature you provided.')
  return undefined
}
