/**
 * How the CLIs find the local stack (infra/stack-discovery.ts): EDGEPLANE_DATA alone when set,
 * else .edgeplane/ of the folder typed in, the working directory and the repository, the first
 * with a stack.json winning; a hub named by any loopback name on the stack's port is the stack's
 * (and gets its certificate), another port or host is not; and a real TLS refusal (a self-signed
 * server, no CA given) is explained naming --ca-file and the stack's certificate, while other
 * failures keep their message.
 */
import { createServer, type Server } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StackInfo } from '../../infra/local/stack-info.ts'
import { createLocalHubCert } from '../../infra/local/tls-cert.ts'
import {
  dataDirCandidates,
  failureText,
  findLocalStack,
  isStackHub,
  stackCaFor,
  tlsHint,
} from '../../infra/stack-discovery.ts'
import { nodeTransport } from '../../lib/remote/node-transport.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'

const info = (url: string) =>
  ({ url, caFile: '/repo/.edgeplane/tls/cert.pem', adminTokenFile: '/t' }) as StackInfo

describe('dataDirCandidates and findLocalStack', () => {
  it('uses EDGEPLANE_DATA alone when set, relative to the working directory', () => {
    expect(dataDirCandidates({ EDGEPLANE_DATA: 'd', INIT_CWD: '/me' }, '/w', '/repo')).toEqual([
      '/w/d',
    ])
  })
  it('else looks in the folder typed in, the working directory and the repository', () => {
    expect(dataDirCandidates({ INIT_CWD: '/me' }, '/w', '/repo')).toEqual([
      '/me/.edgeplane',
      '/w/.edgeplane',
      '/repo/.edgeplane',
    ])
    expect(dataDirCandidates({}, '/repo', '/repo')).toEqual(['/repo/.edgeplane'])
  })
  it("takes the first folder holding a stack.json, else names the repository's", async () => {
    const stack = info('https://127.0.0.1:8787')
    const read = async (p: string) => (p === '/repo/.edgeplane/stack.json' ? stack : undefined)
    expect(await findLocalStack({}, '/elsewhere', read, '/repo')).toEqual({
      dataDir: '/repo/.edgeplane',
      info: stack,
    })
    expect(await findLocalStack({}, '/elsewhere', async () => undefined, '/repo')).toEqual({
      dataDir: '/repo/.edgeplane',
      info: undefined,
    })
    const none = async () => undefined
    expect((await findLocalStack({ EDGEPLANE_DATA: 'd' }, '/w', none, '/repo')).dataDir).toBe(
      '/w/d'
    )
  })
})

describe('isStackHub and stackCaFor', () => {
  const stack = info('https://127.0.0.1:8787/')
  it.each([
    ['https://127.0.0.1:8787', true],
    ['https://localhost:8787/', true],
    ['https://[::1]:8787', true],
    ['https://127.0.0.1:8800', false],
    ['http://127.0.0.1:8787', false],
    ['https://center.example:8787', false],
    ['not a url', false],
  ])('%s is the stack hub: %s', (url, same) => {
    expect(isStackHub(url, stack)).toBe(same)
    expect(stackCaFor(url, stack)).toBe(same ? stack.caFile : undefined)
  })
  it('knows no hub without a stack', () => {
    expect(isStackHub('https://127.0.0.1:8787', undefined)).toBe(false)
  })
})

describe('tlsHint and failureText', () => {
  let server: Server
  let url = ''
  beforeAll(async () => {
    const tls = createLocalHubCert()
    server = createServer({ cert: tls.certPem, key: tls.keyPem }, (_q, res) => res.end('ok'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const a = server.address()
    url = `https://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it.each([
    ['the CLIs transport', nodeTransport({})],
    ["Node's fetch", undefined],
  ])(
    'names --ca-file and the stack certificate for a self-signed server (%s)',
    async (_w, send) => {
      const err = await createRemote({ baseUrl: url, ...(send ? { fetch: send } : {}) })
        .call('/x', { method: 'POST', what: `POST ${url}/x` })
        .catch((e: unknown) => e)
      const found = { dataDir: '/repo/.edgeplane', info: undefined }
      expect(tlsHint(err, found, '/repo')).toBe(
        "TLS: self-signed certificate; pass --ca-file <cert.pem> (the local stack's is .edgeplane/tls/cert.pem)"
      )
      expect(failureText(err, found, '/elsewhere')).toBe(
        `POST ${url}/x: TLS: self-signed certificate; pass --ca-file <cert.pem> (the local stack's is /repo/.edgeplane/tls/cert.pem)`
      )
    }
  )
  it('finds the words of a TLS refusal in an error that kept only its text', () => {
    const found = { dataDir: '/repo/.edgeplane', info: undefined }
    const err = new Error('seeding: POST /x answered 0: unable to verify the first certificate')
    expect(tlsHint(err, found, '/repo')).toMatch(
      /^TLS: unable to verify the first certificate; pass --ca-file <cert\.pem>/
    )
  })
  it('leaves other failures as they are', () => {
    const found = { dataDir: '/repo/.edgeplane', info: undefined }
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    const err = new TypeError('fetch failed', { cause: refused })
    expect(tlsHint(err, found, '/repo')).toBeUndefined()
    expect(failureText(new Error('HTTP 403: no'), found, '/repo')).toBe('HTTP 403: no')
  })
})
