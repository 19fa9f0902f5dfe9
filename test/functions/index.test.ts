import { describe, expect, it } from 'vitest'
import worker from '../../functions/index.ts'
import type { Env } from '../../lib/env.ts'
import { INSTANCE_HEADER } from '../../lib/instance-label.ts'

/**
 * workerd builds `request.url` with the WHATWG parser, which has already resolved dot segments;
 * a runtime that passes the URL through as sent is modelled by a request-like object.
 */
function rawLike(method: string, url: string): Request {
  return { method, url, headers: new Headers() } as unknown as Request
}

const call = (method: string, url: string) =>
  worker.fetch(
    rawLike(method, url) as Parameters<typeof worker.fetch>[0],
    {} as Env,
    {} as ExecutionContext
  )

describe('the Worker checks the raw URL before anything parses it', () => {
  it.each([
    ['DELETE', 'https://hub/api/v1/namespaces/x/configmaps/%2e%2e', 400],
    ['DELETE', 'https://hub/api/v1/namespaces/x/configmaps/.', 400],
    ['GET', 'https://hub/clusters/%2E%2E/api/v1/namespaces', 400],
    ['GET', `https://hub/api/v1/namespaces?x=${'a'.repeat(20_000)}`, 414],
    ['FOO', 'https://hub/api/v1/namespaces', 405],
  ])('%s %s is %i with a Status, without touching the store', async (method, url, code) => {
    const res = await call(method, url)
    expect(res.status).toBe(code)
    expect(await res.json()).toMatchObject({ kind: 'Status', code })
  })
})

describe('the instance label (INSTANCE_ID)', () => {
  const get = (path: string, env: Env) =>
    worker.fetch(new Request(`https://hub${path}`) as Parameters<typeof worker.fetch>[0], env, {
      waitUntil: () => undefined,
      passThroughOnException: () => undefined,
    } as never)

  it('is answered by the health routes when configured, and only by them', async () => {
    const env = { INSTANCE_ID: 'start-42', DDB_ENDPOINT: 'http://127.0.0.1:1' } as Env
    for (const path of ['/healthz', '/livez']) {
      const res = await get(path, env)
      expect(res.status).toBe(200)
      expect(res.headers.get(INSTANCE_HEADER)).toBe('start-42')
      expect(await res.text()).toBe('ok')
    }
    const api = await get('/api/v1/namespaces', env)
    expect(api.status).toBe(401)
    expect(api.headers.get(INSTANCE_HEADER)).toBeNull()
  })

  it('is absent when not configured', async () => {
    const res = await get('/healthz', { DDB_ENDPOINT: 'http://127.0.0.1:1' } as Env)
    expect(res.status).toBe(200)
    expect(res.headers.get(INSTANCE_HEADER)).toBeNull()
  })
})
