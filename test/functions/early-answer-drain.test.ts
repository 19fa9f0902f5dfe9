/**
 * An answer given before the request body was read reaches the client whole, even as the client
 * is still sending megabytes on a `Connection: close` connection (functions/early-answer-drain.ts
 * through guardListener): the server reads and drops the rest before closing, instead of closing
 * into the client's upload (a reset that loses the answer); past the bound it does close.
 */
import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_DRAIN_BYTES } from '../../functions/early-answer-drain.ts'
import { guardListener, guardServer, writeStatus } from '../../functions/raw-request-guard.ts'
import { tooLarge, unauthorized } from '../../lib/errors.ts'

let server: Server
let port: number
/** Bytes the server read from each connection, recorded when it closes. */
const readPerConnection: number[] = []
beforeAll(async () => {
  server = guardServer(
    createServer(
      guardListener((req, res) => {
        req.socket.once('close', () => readPerConnection.push(req.socket.bytesRead))
        // answers at once, reading nothing, as the hub does for a bad token or a declared 4 MiB
        if (req.url === '/stream') {
          res.writeHead(401, { 'content-type': 'application/json' })
          res.write('{"kind":"Status",')
          res.end('"code":401}')
        } else if (req.url === '/later') setTimeout(() => writeStatus(res, unauthorized()), 5)
        else writeStatus(res, tooLarge('the request body is too large'))
      })
    )
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

/** Sends a head and `size` body bytes in one go; answers what came back before the close. */
function upload(path: string, size: number): Promise<{ answer: string; error?: string }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1')
    let answer = ''
    sock.on('connect', () => {
      sock.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`
      )
      sock.write(Buffer.alloc(size, 0x20))
    })
    sock.on('data', (d) => {
      answer += d.toString('latin1')
    })
    sock.on('error', (e) => resolve({ answer, error: e.message }))
    sock.on('close', () => resolve({ answer }))
  })
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4)

describe('an early answer to a large upload', () => {
  it.each([
    ['/', 413],
    ['/later', 401],
  ])('%s: the client reads the whole Status, every time', async (path, code) => {
    for (let i = 0; i < 5; i++) {
      const { answer, error } = await upload(path, 4 * 1024 * 1024)
      expect(error).toBeUndefined()
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${code} `))
      expect(answer.toLowerCase()).toContain('connection: close')
      expect(JSON.parse(bodyOf(answer))).toMatchObject({ kind: 'Status', code })
    }
  })

  it('a streamed answer arrives whole too, its last chunk included', async () => {
    for (let i = 0; i < 5; i++) {
      const { answer, error } = await upload('/stream', 4 * 1024 * 1024)
      expect(error).toBeUndefined()
      expect(answer).toContain('"code":401}')
      expect(answer.endsWith('\r\n0\r\n\r\n')).toBe(true)
    }
  })

  it('stops reading past the bound and closes', async () => {
    readPerConnection.length = 0
    const size = MAX_DRAIN_BYTES + 16 * 1024 * 1024
    const { answer } = await upload('/', size)
    // the answer may or may not survive the reset; the server must not read all of it
    expect(answer === '' || answer.startsWith('HTTP/1.1 413 ')).toBe(true)
    await new Promise((r) => setTimeout(r, 50))
    expect(readPerConnection).toHaveLength(1)
    expect(readPerConnection[0]).toBeGreaterThan(MAX_DRAIN_BYTES)
    expect(readPerConnection[0]).toBeLessThan(size)
  })
})
