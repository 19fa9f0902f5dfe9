import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { waitHealthy } from '../../../infra/local/health.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'

let server: Server | undefined

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = undefined
})

async function serve(statusFor: (n: number) => number): Promise<string> {
  let n = 0
  server = createServer((_req, res) => {
    res.statusCode = statusFor(n++)
    res.end()
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`
}

describe('waitHealthy', () => {
  it('waits through errors until 200', async () => {
    let calls = 0
    const url = await serve((n) => {
      calls = n + 1
      return n < 3 ? 503 : 200
    })
    await waitHealthy(url, { timeoutMs: 10_000, intervalMs: 10 })
    expect(calls).toBe(4)
  })

  it('gives up with the reason when told to', async () => {
    const url = `http://127.0.0.1:${await pickFreePort()}/healthz`
    let polls = 0
    const gaveUp = () => (++polls > 2 ? 'wrangler dev exited with code 1' : undefined)
    await expect(waitHealthy(url, { timeoutMs: 10_000, intervalMs: 10, gaveUp })).rejects.toThrow(
      'wrangler dev exited with code 1'
    )
  })

  it('times out naming the URL', async () => {
    const url = await serve(() => 500)
    await expect(waitHealthy(url, { timeoutMs: 100, intervalMs: 10 })).rejects.toThrow(
      `${url} did not answer 200`
    )
  })
})
