/**
 * `kubectl get -w` against the real local stack: a watch on one namespace's ConfigMaps (JSON with
 * watch event types) sees ADDED, MODIFIED and DELETED for changes made while it runs, and nothing
 * from another namespace.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, splitJsonStream } from './helpers/kubectl.ts'
import { withoutLateAnnouncements } from './helpers/late-announcements.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace('watched') }))
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace('other') }))
  ok(
    await stack.kubectl(['create', '-f', '-'], {
      input: configMap('watched', 'before', { k: 'v' }),
    })
  )
})
afterAll(async () => {
  await stack?.close()
})

type WatchEvent = { type: string; object: KubeObject & { data?: Record<string, string> } }

const eventsOf = (out: string) => splitJsonStream(out) as WatchEvent[]
const has = (type: string, name: string) => (out: string) =>
  eventsOf(out).some((e) => e.type === type && e.object.metadata.name === name)

describe('kubectl get -w', () => {
  it('sees ADDED, MODIFIED and DELETED in order, for its namespace only', async () => {
    const watch = stack.kubectlWatch([
      'get',
      'configmaps',
      '-n',
      'watched',
      '-w',
      '--output-watch-events',
      '-o',
      'json',
    ])
    try {
      await watch.waitFor(has('ADDED', 'before'))
      ok(
        await stack.kubectl(['create', '-f', '-'], {
          input: configMap('watched', 'live', { a: '1' }),
        })
      )
      await watch.waitFor(has('ADDED', 'live'))
      ok(
        await stack.kubectl(['create', '-f', '-'], {
          input: configMap('other', 'elsewhere', { a: '1' }),
        })
      )
      ok(
        await stack.kubectl([
          'patch',
          'configmap',
          'live',
          '-n',
          'watched',
          '--type',
          'merge',
          '-p',
          '{"data":{"a":"2"}}',
        ])
      )
      await watch.waitFor(has('MODIFIED', 'live'))
      ok(await stack.kubectl(['delete', 'configmap', 'live', '-n', 'watched']))
      await watch.waitFor(has('DELETED', 'live'))
    } finally {
      await watch.stop()
    }
    const live = eventsOf(watch.stdout()).filter((e) => e.object.metadata.name === 'live')
    const { events, dropped } = withoutLateAnnouncements(live, (e) => e.object.data)
    expect(dropped).toBeLessThanOrEqual(2)
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
    expect(events[1]?.object.data).toEqual({ a: '2' })
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion))
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs)
    expect(eventsOf(watch.stdout()).some((e) => e.object.metadata.name === 'elsewhere')).toBe(false)
    expect(watch.stderr()).not.toContain('error')
  })
})
