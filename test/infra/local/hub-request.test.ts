import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { hubRequest } from '../../../infra/local/hub-request.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'

describe('hubRequest', () => {
  it('sends method, headers and body, and answers a web Response', async () => {
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => {
        body += c.toString()
      })
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.setHeader('set-cookie', ['a=1', 'b=2'])
        res.statusCode = req.url === '/missing' ? 404 : 201
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const res = await hubRequest(`${base}/things`, {
        method: 'POST',
        headers: { authorization: 'Bearer t' },
        body: '{"x":1}',
      })
      expect(res.status).toBe(201)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(await res.json()).toEqual({ method: 'POST', auth: 'Bearer t', body: '{"x":1}' })
      expect((await hubRequest(`${base}/missing`)).status).toBe(404)
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })

  it('rejects when nothing listens, and on timeout', async () => {
    await expect(hubRequest(`http://127.0.0.1:${await pickFreePort()}/`)).rejects.toThrow(
      /ECONNREFUSED/
    )
    const server = createServer(() => {})
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`
    try {
      await expect(hubRequest(url, { timeoutMs: 100 })).rejects.toThrow('GET http')
    } finally {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})
