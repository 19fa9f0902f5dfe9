/**
 * A running watch tells the store when its previous poll began (ChangesOptions.previousPollAt), so
 * its polls after the first read no watermark (lib/store/change-log.ts); the first one does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { watchResponse } from '../../../functions/api/watch.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import { ROOT } from '../../../lib/hub/spaces.ts'
import type { ChangesOptions } from '../../../lib/store/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

describe('a running watch', () => {
  it('passes its previous poll time to every poll after the first', async () => {
    const info = (await registryForSpace(hub.deps, ROOT.id)).byResource('', 'configmaps')
    if (!info) throw new Error('configmaps not served')
    const asked: (number | undefined)[] = []
    const objects = {
      ...hub.deps.objects,
      changes: (o: ChangesOptions) => {
        asked.push(o.previousPollAt)
        return hub.deps.objects.changes(o)
      },
    }
    const res = watchResponse(
      { ...hub.deps, objects },
      {
        target: { space: ROOT, info, version: 'v1', namespace: 'default' },
        allSpaces: false,
        resourceVersion: String(await hub.deps.objects.currentRv()),
        predicate: () => true,
        bookmarks: false,
        timeoutSeconds: 120,
        pollMs: 50,
        idlePollMs: 100,
      }
    )
    for (let i = 0; i < 5; i++) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `w-${i}` } }
      expect((await hub.call('POST', '/api/v1/namespaces/default/configmaps', cm)).status).toBe(201)
      await new Promise((r) => setTimeout(r, 100))
    }
    // Read until the five ADDED events came (a busy machine may take long), then end the watch.
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    const added = () => text.split('\n').filter((l) => l.includes('"ADDED"')).length
    while (added() < 5) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    await reader.cancel()
    expect(added()).toBe(5)
    expect(asked.length).toBeGreaterThan(2)
    expect(asked[0]).toBeUndefined()
    for (const [i, at] of asked.slice(1).entries()) {
      expect(typeof at).toBe('number')
      if (i > 0) expect(at).toBeGreaterThanOrEqual(asked[i] as number)
    }
  })
})
