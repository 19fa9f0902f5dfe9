/**
 * The front gate (functions/front-gate.ts) and the Worker entry that applies it first: with
 * LOCAL_FRONT_SECRET set, a request without the front's header, or with another value, is a 403
 * Status before anything else runs (the health routes and a dot-segment DELETE included); with
 * the header it is served as before; without the variable (production) the gate is off.
 */
import { describe, expect, it } from 'vitest'
import {
  checkFront,
  FRONT_HEADER,
  FRONT_SECRET_VAR,
  frontSecretOf,
} from '../../functions/front-gate.ts'
import worker from '../../functions/index.ts'
import type { Env } from '../../lib/env.ts'

const SECRET = 'f'.repeat(64)

describe('checkFront', () => {
  it('passes the secret only, and everything when none is configured', () => {
    const h = (value?: string) => new Headers(value === undefined ? {} : { [FRONT_HEADER]: value })
    expect(checkFront(SECRET, h(SECRET))).toBeUndefined()
    for (const wrong of [undefined, '', 'f', `${SECRET}f`, SECRET.replace(/f$/, 'e')])
      expect(checkFront(SECRET, h(wrong))?.toStatus()).toMatchObject({
        code: 403,
        reason: 'Forbidden',
      })
    expect(checkFront(undefined, h())).toBeUndefined()
  })

  it('reads the secret from the Worker environment', () => {
    expect(frontSecretOf({ [FRONT_SECRET_VAR]: SECRET })).toBe(SECRET)
    expect(frontSecretOf({ [FRONT_SECRET_VAR]: '' })).toBeUndefined()
    expect(frontSecretOf({})).toBeUndefined()
  })
})

describe('the Worker behind the local front', () => {
  const env = { [FRONT_SECRET_VAR]: SECRET, DDB_ENDPOINT: 'http://127.0.0.1:1' } as unknown as Env
  const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined } as never
  const call = (method: string, url: string, headers: Record<string, string>, e = env) =>
    worker.fetch(
      // A request-like object: what a runtime passing the URL through unresolved would hand over.
      { method, url, headers: new Headers(headers) } as unknown as Parameters<
        typeof worker.fetch
      >[0],
      e,
      ctx
    )

  it('refuses requests that did not come through the front, before anything else', async () => {
    for (const [method, url] of [
      ['GET', 'https://hub/healthz'],
      ['DELETE', 'https://hub/api/v1/namespaces/x/configmaps/%2e%2e'],
      ['GET', 'https://hub/api/v1/namespaces'],
    ] as const) {
      for (const headers of [{}, { [FRONT_HEADER]: 'guess' }] as Record<string, string>[]) {
        const res = await call(method, url, headers)
        expect(res.status).toBe(403)
        expect(await res.json()).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' })
      }
    }
  })

  it('serves what the front forwards, raw checks included', async () => {
    const via = { [FRONT_HEADER]: SECRET }
    const health = await call('GET', 'https://hub/healthz', via)
    expect(health.status).toBe(200)
    expect(await health.text()).toBe('ok')
    const dots = await call('DELETE', 'https://hub/api/v1/namespaces/x/configmaps/%2e%2e', via)
    expect(dots.status).toBe(400)
  })

  it('is off without the variable (production)', async () => {
    const res = await call('GET', 'https://hub/healthz', {}, {
      DDB_ENDPOINT: 'http://127.0.0.1:1',
    } as Env)
    expect(res.status).toBe(200)
  })
})
