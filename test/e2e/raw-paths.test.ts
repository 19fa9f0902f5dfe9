/**
 * Raw request paths against `npm start`'s stack, sent byte for byte (node:https, not fetch, which
 * would resolve `..` itself): dot-segment names, raw or percent-encoded, are 400 and act on
 * nothing — the Namespace and its ConfigMaps are still there afterwards; `/clusters/%2e%2e/...` is
 * 400, never root; a 20 KB URL is 414 and an unknown method 405, each with a kube Status body; and
 * the legacy watch path ruby-kubeclient uses streams events.
 */
import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../helpers/raw-request.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const NS = 'rawp'
const CMS = `/clusters/root/api/v1/namespaces/${NS}/configmaps`
let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace(NS) }))
  for (const name of ['a', 'b'])
    ok(await stack.kubectl(['create', '-f', '-'], { input: configMap(NS, name) }))
})
afterAll(async () => {
  await stack?.close()
})

const raw = (method: string, target: string) =>
  rawRequest(stack.url, method, target, {
    ca: stack.ca(),
    headers: { authorization: `Bearer ${stack.adminToken()}` },
  })

async function configMapNames(): Promise<string[]> {
  const list = okJson<{ items: { metadata: { name: string } }[] }>(
    await stack.kubectl(['get', 'configmaps', '-n', NS, '-o', 'json'])
  )
  return list.items.map((i) => i.metadata.name).sort()
}

describe('raw request paths through the local stack', () => {
  it.each(['%2e%2e', '%2E%2E', '.%2e', '..'])(
    'DELETE .../configmaps/%s is 400 and the Namespace still exists',
    async (segment) => {
      const res = await raw('DELETE', `${CMS}/${segment}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 })
      expect(res.body.message).toContain("may not be '..'")
      ok(await stack.kubectl(['get', 'namespace', NS]))
    }
  )

  it('DELETE .../configmaps/. is 400 and the ConfigMaps still exist', async () => {
    for (const segment of ['.', '%2e']) {
      const res = await raw('DELETE', `${CMS}/${segment}`)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain("may not be '.'")
    }
    expect(await configMapNames()).toEqual(expect.arrayContaining(['a', 'b']))
  })

  it('/clusters/%2e%2e/... and /clusters/../... are 400, never root', async () => {
    for (const target of ['/clusters/%2e%2e/api/v1/namespaces', '/clusters/../api/v1/namespaces']) {
      const res = await raw('GET', target)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ kind: 'Status', code: 400 })
    }
  })

  it('a 20 KB URL is 414 with a Status body', async () => {
    const res = await raw('GET', `${CMS}?labelSelector=${'a'.repeat(20_000)}`)
    expect(res.status).toBe(414)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'RequestURITooLong', code: 414 })
  })

  it('method FOO is 405 with a Status body', async () => {
    const res = await raw('FOO', CMS)
    expect(res.status).toBe(405)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 })
  })

  it('the legacy watch path streams the namespace configmaps', async () => {
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${stack.url}/api/v1/watch/namespaces/${NS}/configmaps/a`,
        { ca: stack.ca(), headers: { authorization: `Bearer ${stack.adminToken()}` } },
        (res) => {
          let buf = ''
          res.on('data', (d: Buffer) => {
            buf += d.toString()
            if (buf.includes('\n')) {
              resolve(buf.slice(0, buf.indexOf('\n')))
              req.destroy()
            }
          })
        }
      )
      req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)))
      req.end()
    })
    expect(JSON.parse(first)).toMatchObject({
      type: 'ADDED',
      object: { kind: 'ConfigMap', metadata: { name: 'a', namespace: NS } },
    })
  })

  it('ordinary requests still pass through the front', async () => {
    const res = await raw('GET', `${CMS}/a`)
    expect(res).toMatchObject({ status: 200, body: { metadata: { name: 'a' } } })
  })
})
