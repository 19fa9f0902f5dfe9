/**
 * Watches on a store that settles its change log (settleMs 300, as in production but shorter),
 * resuming from a watchable list (lib/store/list-marks.ts): a watch with initial events, and a
 * watch from the version of a list the API answered, send exactly the changes made after the list,
 * none of those it showed, even when they were made just before it. A busy machine lands some
 * entries late, and the store announces those again unchanged (lib/store/late-entries.ts): the
 * watches are read without them (test/helpers/watch-changes.ts), by content, so a repeat of a
 * change the list showed still fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'
import { changeReader } from '../../helpers/watch-changes.ts'

let hub: TestHub
const CMS = '/clusters/root/api/v1/namespaces/s/configmaps'
const cm = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
})

beforeAll(async () => {
  hub = await createTestHub({ settleMs: 300 })
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 's' },
  })
})
afterAll(() => hub.close())

async function openWatch(query: string, seen: Parameters<typeof changeReader>[1] = []) {
  const res = await hub.app.request(`${BASE}${CMS}?watch=true&${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  return changeReader(ndjsonReader(res.body!), seen)
}

describe('a watch on a settling store', () => {
  it('with initial events does not repeat a change its list held, and sends the next', async () => {
    expect((await hub.call('POST', CMS, cm('recent'))).status).toBe(201)
    const w = await openWatch(
      'sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan'
    )
    const initial = await w.next()
    expect([initial.type, initial.object.metadata.name]).toEqual(['ADDED', 'recent'])
    const end = await w.next()
    expect(end.type).toBe('BOOKMARK')
    expect(end.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' })
    expect(end.object.metadata.resourceVersion).toBe(initial.object.metadata.resourceVersion)
    await hub.call('PUT', `${CMS}/recent`, {
      ...cm('recent', { v: '2' }),
      metadata: { name: 'recent', resourceVersion: initial.object.metadata.resourceVersion },
    })
    await hub.call('POST', CMS, cm('later'))
    const next = [await w.next(), await w.next()]
    await w.close()
    expect(next.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['MODIFIED', 'recent'],
      ['ADDED', 'later'],
    ])
    expect(next[0].object.data).toEqual({ v: '2' })
  })

  it('from a list version sends each change made after the list, and no other', async () => {
    await hub.call('DELETE', `${CMS}/later`)
    const list = await hub.call('GET', CMS)
    expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual([
      'recent',
    ])
    const seen = list.body.items.map((object: object) => ({ type: 'ADDED', object }))
    const w = await openWatch(`resourceVersion=${list.body.metadata.resourceVersion}`, seen)
    await hub.call('POST', CMS, cm('x'))
    await hub.call('DELETE', `${CMS}/x`)
    const events = [await w.next(), await w.next()]
    await w.close()
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'x'],
      ['DELETED', 'x'],
    ])
  })
})
