import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardBuiltServer, parserErrorStatus } from '../../functions/raw-request-guard.ts'
import { rawRequest } from '../helpers/raw-request.ts'

let server: Server
let base: string
const reached: string[] = []

beforeAll(async () => {
  const app = new Hono()
  app.all('*', (c) => {
    reached.push(`${c.req.method} ${new URL(c.req.url).pathname}`)
    return c.text('reached')
  })
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(s as Server)
    )
  })
  guardBuiltServer(server)
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('guardBuiltServer', () => {
  it('refuses a dot segment before the app would see it resolved', async () => {
    const res = await rawRequest(base, 'DELETE', '/api/v1/namespaces/x/configmaps/%2e%2e')
    expect(res).toMatchObject({ status: 400, body: { kind: 'Status', reason: 'BadRequest' } })
    expect(reached).toEqual([])
  })

  it('still lets ordinary requests through, once each', async () => {
    const res = await rawRequest(base, 'GET', '/api/v1/namespaces/x')
    expect(res).toMatchObject({ status: 200, body: 'reached' })
    expect(reached).toEqual(['GET /api/v1/namespaces/x'])
  })

  it('answers a request line over the default header limit with a 431 Status', async () => {
    const res = await rawRequest(base, 'GET', `/api?x=${'a'.repeat(20_000)}`)
    expect(res).toMatchObject({ status: 431, body: { kind: 'Status', code: 431 } })
  })
})

describe('parserErrorStatus', () => {
  it.each([
    ['HPE_INVALID_METHOD', 405, 'MethodNotAllowed'],
    ['HPE_HEADER_OVERFLOW', 431, 'RequestHeaderFieldsTooLarge'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Timeout'],
    ['HPE_INVALID_URL', 400, 'BadRequest'],
  ])('%s is %i %s', (code, status, reason) => {
    const err = Object.assign(new Error('parse'), { code })
    expect(parserErrorStatus(err).toStatus()).toMatchObject({ code: status, reason })
  })
})
