/**
 * One HTTP(S) request with its request-target sent exactly as given (`fetch` and `Request` would
 * resolve `..` and `%2e%2e` first), for tests of the raw-path checks. Answers status, headers and
 * the body parsed as JSON when it is JSON.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: any }

export function rawRequest(
  base: string,
  method: string,
  target: string,
  opts: { headers?: Record<string, string>; body?: string; ca?: string } = {}
): Promise<RawAnswer> {
  const url = new URL(base)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers: opts.headers ?? {},
        agent: false,
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
        })
      }
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}
