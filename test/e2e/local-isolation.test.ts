/**
 * What other processes on the machine can reach of `npm start`'s stack (issue 35, the small
 * ones), through the real processes: dynalite refuses every request not signed with the store
 * key — a raw PutItem, and the hub's own store code with the dummy credentials it used to take,
 * whose made-up admin token the hub then does not know — while the key in stack.json's keyFile
 * reaches it; no loopback port of wrangler's processes serves the Worker without the front (a
 * `%2e%2e` DELETE sent there is refused and the Namespace is still there; /healthz is not
 * answered); and the dashboard's static files, fetched through `wrangler dev`, and its API carry
 * `frame-ancestors 'none'`, nosniff and X-Frame-Options DENY.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groupMembers } from '../../infra/local/process-group.ts'
import { registerToken } from '../../lib/auth/tokens.ts'
import { readConfig } from '../../lib/env.ts'
import { openStore } from '../../lib/hub/hub-deps.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { ok } from './helpers/kubectl.ts'
import { namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'
import { openStackStore } from './helpers/store-access.ts'

const NS = 'local-iso'
let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace(NS) }))
})
afterAll(async () => {
  await stack?.close()
})

/** The TCP ports the processes of wrangler's group listen on (wrangler, both workerds). */
function wranglerPorts(pgid: number): number[] {
  const inodes = new Set<string>()
  for (const pid of groupMembers(pgid) ?? []) {
    let fds: string[] = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (m?.[1]) inodes.add(m[1])
      } catch {
        // closed meanwhile
      }
    }
  }
  const ports = new Set<number>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      // state 0A is LISTEN; column 9 is the socket's inode
      if (cols[3] === '0A' && inodes.has(cols[9] ?? ''))
        ports.add(Number.parseInt((cols[1] ?? '').split(':')[1] ?? '0', 16))
    }
  }
  return [...ports]
}

describe('the local store', () => {
  it('refuses a raw PutItem without the store key', async () => {
    const info = stack.info()
    const res = await fetch(info.dynalite.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.PutItem',
      },
      body: JSON.stringify({ TableName: info.tableName, Item: { pk: { S: 'x' }, sk: { S: 'y' } } }),
    })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { __type: string }).__type).toMatch(
      /MissingAuthenticationTokenException$/
    )
  })

  it('refuses the made-up admin token of a client with the dummy credentials', async () => {
    const info = stack.info()
    // openStore gives an endpoint without credentials the dummy ones ('local'), as before.
    const handle = openStore(
      readConfig({ DDB_ENDPOINT: info.dynalite.endpoint, TABLE_NAME: info.tableName })
    )
    const madeUp = `made-up-${Date.now()}`
    try {
      await expect(
        registerToken(handle.store.kv, madeUp, { kind: 'admin', name: 'intruder', spaces: [] })
      ).rejects.toThrow(/security token included in the request is invalid|UnrecognizedClient/)
    } finally {
      handle.store.client.destroy()
    }
    expect((await stack.api('/api/v1/namespaces', { token: madeUp })).status).toBe(401)
  })

  it("serves the store key's holder (stack.json's keyFile)", async () => {
    expect(stack.info().dynalite.keyFile).toBeDefined()
    const store = openStackStore(stack.info())
    const minted = `keyholder-${Date.now()}`
    try {
      await store.mintToken(minted, { kind: 'admin', name: 'keyholder', spaces: [] })
    } finally {
      store.close()
    }
    expect((await stack.api('/api/v1/namespaces', { token: minted })).status).toBe(200)
  })
})

describe("wrangler's own ports", () => {
  it('serve the Worker to nobody but the front', async () => {
    const info = stack.info()
    const ports = wranglerPorts(info.wrangler.pid)
    expect(ports).toContain(info.wrangler.port)
    // wrangler's listener, the inspector, and the Worker's own workerd with its entry socket
    expect(ports.length).toBeGreaterThanOrEqual(3)
    const auth = { authorization: `Bearer ${stack.adminToken()}` }
    for (const port of ports) {
      const base = `http://127.0.0.1:${port}`
      const del = await rawRequest(base, 'DELETE', `/api/v1/namespaces/${NS}/configmaps/%2e%2e`, {
        headers: auth,
      }).catch(() => undefined)
      if (del) expect(del.status, `DELETE on ${port}`).toBeGreaterThanOrEqual(400)
      const health = await rawRequest(base, 'GET', '/healthz').catch(() => undefined)
      if (health)
        expect(`${health.status} ${health.body}`, `/healthz on ${port}`).not.toBe('200 ok')
    }
    const direct = await rawRequest(`http://127.0.0.1:${info.wrangler.port}`, 'GET', '/healthz')
    expect(direct.status).toBe(403)
    expect(direct.body).toMatchObject({ kind: 'Status', code: 403 })
    ok(await stack.kubectl(['get', 'namespace', NS]))
    // Through the front everything is as before.
    expect((await stack.api('/healthz', { token: null })).status).toBe(200)
  })
})

describe('the dashboard through wrangler dev', () => {
  const expectUiHeaders = (res: Response, what: string) => {
    expect(res.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
    expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  }

  it('serves its static files with the security headers', async () => {
    for (const path of ['/ui/', '/ui/app.js', '/ui/style.css']) {
      const res = await stack.api(path, { token: null })
      expect(res.status, path).toBe(200)
      expectUiHeaders(res, path)
      await res.body?.cancel()
    }
    const page = await stack.api('/ui/', { token: null })
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<meta http-equiv="Content-Security-Policy"')
  })

  it('answers its API with them', async () => {
    const res = await stack.api('/ui/api/session', {
      token: null,
      headers: { 'x-edgeplane-ui': '1' },
    })
    expect(res.status).toBe(401)
    expectUiHeaders(res, '/ui/api/session')
  })
})
