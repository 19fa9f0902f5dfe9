import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'

let hub: TestHub
const CMS = '/clusters/root/api/v1/namespaces/wo/configmaps'

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'wo' },
  })
  await hub.call('POST', CMS, cm('first'))
})
afterAll(() => hub.close())

/** Opens a watch with exactly this query and returns a reader of its events. */
async function openWatch(query: string) {
  const res = await hub.app.request(`${BASE}${CMS}?${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  return { res, ...ndjsonReader(res.body!) }
}

describe('watch options', () => {
  it('serves the official Python client: watch=True&allowWatchBookmarks=True', async () => {
    const w = await openWatch('watch=True&allowWatchBookmarks=True&timeoutSeconds=5')
    expect(w.res.status).toBe(200)
    const first = await w.next()
    await w.close()
    expect(first).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'first' } } })
  })

  it('ends a watch from a future resourceVersion with a TooLarge ERROR event', async () => {
    const ahead = (await hub.deps.objects.currentRv()) + 1000
    const started = Date.now()
    const w = await openWatch(`watch=1&resourceVersion=${ahead}`)
    expect(w.res.status).toBe(200)
    const ev = await w.next()
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500)
    expect(ev).toMatchObject({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: 504,
        reason: 'Timeout',
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        },
      },
    })
    expect(ev.object.message).toBe(
      `Timeout: Too large resource version: ${ahead}, current: ${ahead - 1000}`
    )
    expect(await w.next()).toBeUndefined() // the stream ended
  }, 10_000)

  it('waits for a future resourceVersion the store reaches soon, then streams', async () => {
    const ahead = (await hub.deps.objects.currentRv()) + 1
    const w = await openWatch(`watch=1&resourceVersion=${ahead}`)
    await hub.call('POST', CMS, cm('soon-1'))
    await hub.call('POST', CMS, cm('soon-2'))
    const ev = await w.next()
    await w.close()
    expect(ev.type).toBe('ADDED')
    expect(Number(ev.object.metadata.resourceVersion)).toBeGreaterThan(ahead)
  })

  it('marks the end of the initial events with a bookmark when bookmarks are allowed', async () => {
    const w = await openWatch('watch=1&allowWatchBookmarks=1&timeoutSeconds=5')
    const events = []
    for (;;) {
      const ev = await w.next()
      events.push(ev)
      if (ev.type !== 'ADDED') break
    }
    await w.close()
    const end = events.at(-1)
    expect(end).toMatchObject({
      type: 'BOOKMARK',
      object: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    })
    expect(events.slice(0, -1).map((e) => e.object.metadata.name)).toContain('first')
  })

  it('starts at the current version with sendInitialEvents=false', async () => {
    const w = await openWatch(
      'watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=5'
    )
    await hub.call('POST', CMS, cm('after'))
    const ev = await w.next()
    await w.close()
    expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after' } } })
  })

  it('ends at once for a negative timeoutSeconds', async () => {
    const w = await openWatch('watch=1&timeoutSeconds=-1')
    expect(w.res.status).toBe(200)
    expect(await w.next()).toBeUndefined()
  })
})
