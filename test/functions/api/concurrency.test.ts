/**
 * Optimistic concurrency through the API, against dynalite: acknowledged conditional writes are
 * exactly the stored changes (a counter incremented by concurrent writers), and writes without a
 * precondition — merge patch, JSON patch, apply, update without resourceVersion, delete — never
 * answer 409 while a reconcile step (the summarize step's workload writer) writes the same object.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeWorkload } from '../../../functions/reconcile-summarize/workload-writes.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createLogger } from '../../../lib/log.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeEach(async () => {
  hub = await createTestHub()
})
afterEach(() => hub.close())

const CMS = '/api/v1/namespaces/default/configmaps'

async function createCounter(name: string) {
  const res = await hub.call('POST', CMS, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { n: '0' },
  })
  expect(res.status).toBe(201)
}

describe('a counter under concurrent conditional writers', () => {
  it('acknowledges exactly the increments it stored, each from a distinct resourceVersion', async () => {
    await createCounter('counter')
    let acked = 0
    let conflicts = 0
    const ackedFrom = new Map<string, number>()
    const writer = async () => {
      for (let done = 0; done < 12; ) {
        const got = await hub.call('GET', `${CMS}/counter`)
        const obj = got.body as KubeObject
        const from = obj.metadata.resourceVersion ?? ''
        const data = obj.data as Record<string, string>
        const put = await hub.call('PUT', `${CMS}/counter`, {
          ...obj,
          data: { n: String(Number(data.n) + 1) },
        })
        if (put.status === 200) {
          acked++
          done++
          ackedFrom.set(from, (ackedFrom.get(from) ?? 0) + 1)
        } else {
          expect(put.status).toBe(409)
          expect(put.body.reason).toBe('Conflict')
          conflicts++
        }
      }
    }
    await Promise.all(Array.from({ length: 8 }, writer))
    const final = await hub.call('GET', `${CMS}/counter`)
    expect(acked).toBe(96)
    expect(Number(final.body.data.n)).toBe(acked)
    expect(Math.max(...ackedFrom.values())).toBe(1)
    // The writers did race (otherwise this test proves nothing).
    expect(conflicts).toBeGreaterThan(0)
  }, 60_000) // 48 conditional read-modify-writes through the hub: seconds of CPU on a shared run
})

describe('writes without preconditions while a reconcile step writes the same object', () => {
  function reconcileLoop(name: string, stop: () => boolean) {
    const client = createHubClient(hub.deps, { fieldManager: 'edgeplane-summarize' })
    const deps = { client, log: createLogger({ level: 'error' }) }
    return (async () => {
      let writes = 0
      for (let i = 0; !stop(); i++) {
        const obj = await client.get(
          'root',
          { group: '', version: 'v1', resource: 'configmaps' },
          name,
          'default'
        )
        if (!obj) break
        const source = {
          group: '',
          version: 'v1',
          resource: 'configmaps',
          namespaced: true,
          object: obj,
        }
        const done = await writeWorkload(deps, 'root', source as never, { count: i % 2 }).catch(
          (e: unknown) => {
            // Losing its own race (or the object) is the step's business; it runs again later.
            const code = (e as { code?: number }).code
            if (code === 409 || code === 404) return []
            throw e
          }
        )
        writes += done.length
      }
      return writes
    })()
  }

  it('merge patch, JSON patch, apply and update without resourceVersion all succeed, and a plain delete too', async () => {
    await createCounter('web')
    let stopped = false
    const step = reconcileLoop('web', () => stopped)
    const statuses: number[] = []
    for (let i = 1; i <= 8; i++) {
      const merge = await hub.call(
        'PATCH',
        `${CMS}/web`,
        { data: { merge: String(i) } },
        {
          contentType: 'application/merge-patch+json',
        }
      )
      const json = await hub.call(
        'PATCH',
        `${CMS}/web`,
        [{ op: 'add', path: '/data/json', value: String(i) }],
        {
          contentType: 'application/json-patch+json',
        }
      )
      const apply = await hub.call(
        'PATCH',
        `${CMS}/web?fieldManager=user`,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'web' },
          data: { applied: String(i) },
        },
        { contentType: 'application/apply-patch+yaml' }
      )
      const current = (await hub.call('GET', `${CMS}/web`)).body as KubeObject
      const { resourceVersion: _rv, ...meta } = current.metadata
      const put = await hub.call('PUT', `${CMS}/web`, {
        ...current,
        metadata: meta,
        data: { ...(current.data as object), put: String(i) },
      })
      statuses.push(merge.status, json.status, apply.status, put.status)
    }
    const del = await hub.call('DELETE', `${CMS}/web`)
    stopped = true
    const writes = await step
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    expect(del.status).toBe(200)
    expect((await hub.call('GET', `${CMS}/web`)).status).toBe(404)
    // The step really wrote the object meanwhile.
    expect(writes).toBeGreaterThan(0)
  })

  it('an update that pins a stale resourceVersion is still a 409', async () => {
    await createCounter('pinned')
    const v1 = (await hub.call('GET', `${CMS}/pinned`)).body as KubeObject
    await hub.call(
      'PATCH',
      `${CMS}/pinned`,
      { data: { n: '1' } },
      { contentType: 'application/merge-patch+json' }
    )
    const stale = await hub.call('PUT', `${CMS}/pinned`, { ...v1, data: { n: '1' } })
    expect(stale.status).toBe(409)
    const pinnedPatch = await hub.call(
      'PATCH',
      `${CMS}/pinned`,
      { metadata: { resourceVersion: v1.metadata.resourceVersion }, data: { n: '2' } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(pinnedPatch.status).toBe(409)
    const preconditioned = await hub.call('DELETE', `${CMS}/pinned`, {
      preconditions: { resourceVersion: v1.metadata.resourceVersion },
    })
    expect(preconditioned.status).toBe(409)
    expect((await hub.call('GET', `${CMS}/pinned`)).body.data).toEqual({ n: '1' })
  })
})

describe('deleting a collection while another client deletes its members', () => {
  it('skips members already gone instead of failing', async () => {
    for (let i = 0; i < 12; i++) await createCounter(`c${i}`)
    const [all] = await Promise.all([
      hub.call('DELETE', CMS),
      ...Array.from({ length: 12 }, (_, i) => hub.call('DELETE', `${CMS}/c${11 - i}`)),
    ])
    expect(all.status).toBe(200)
    expect((await hub.call('GET', CMS)).body.items).toEqual([])
  })
})
