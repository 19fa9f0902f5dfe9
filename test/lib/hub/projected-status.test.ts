/**
 * The status subresource of projected copies: PUT and PATCH of `/status` write the copy state
 * (with the resourceVersion precondition), the copy's get, list and watch show it, and every other
 * write stays 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let mailbox: string

const MB_NAME = 'abcdefghij012345-mb-0f0e0d0c-0b0a-4098-8706-050403020100'
const DEPLOYS = () => `/clusters/${mailbox}/apis/apps/v1/namespaces/ns/deployments`
const D = () => `${DEPLOYS()}/d`

function deployment(replicas: number): DesiredEntry {
  const body = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  }
  return { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'd', body }
}

beforeAll(async () => {
  hub = await createTestHub()
  const ws = {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: MB_NAME },
  }
  const res = await hub.call(
    'POST',
    '/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces',
    ws
  )
  mailbox = res.body.spec.cluster
  await hub.deps.projections.writeManifest(mailbox, {
    desired: [deployment(1)],
    expectedVersion: null,
    now: new Date(),
  })
})
afterAll(() => hub.close())

/** Opens a watch and returns a reader of its newline-delimited events. */
async function openWatch(path: string, rv: string) {
  const res = await hub.app.request(`${BASE}${path}?watch=true&resourceVersion=${rv}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  let buf = ''
  return {
    async next(): Promise<any> {
      for (;;) {
        const nl = buf.indexOf('\n')
        if (nl >= 0) {
          const line = buf.slice(0, nl)
          buf = buf.slice(nl + 1)
          return JSON.parse(line)
        }
        const { value, done } = await reader.read()
        if (done) return undefined
        buf += dec.decode(value, { stream: true })
      }
    },
    close: () => reader.cancel(),
  }
}

describe('status of projected copies', () => {
  it('PUT /status writes the status; get, list and watch show it', async () => {
    const current = (await hub.call('GET', D())).body
    const list = await hub.call('GET', DEPLOYS())
    const w = await openWatch(DEPLOYS(), list.body.metadata.resourceVersion)
    const status = { replicas: 1, readyReplicas: 1, observedGeneration: 1 }
    const put = await hub.call('PUT', `${D()}/status`, { ...current, status })
    expect(put.status).toBe(200)
    expect(put.body.status).toEqual(status)
    expect(put.body.spec).toEqual(current.spec)
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(current.metadata.resourceVersion)
    )
    const got = (await hub.call('GET', D())).body
    expect(got).toEqual(put.body)
    const listed = (await hub.call('GET', DEPLOYS())).body.items
    expect(listed.map((o: any) => o.status)).toEqual([status])
    const event = await w.next()
    await w.close()
    expect(event.type).toBe('MODIFIED')
    expect(event.object.status).toEqual(status)
    expect(event.object.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion)
  })

  it('PATCH /status works too, and an unchanged status writes nothing', async () => {
    const before = (await hub.call('GET', D())).body
    const patch = await hub.call(
      'PATCH',
      `${D()}/status`,
      { status: { readyReplicas: 0 } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(patch.status).toBe(200)
    expect(patch.body.status).toEqual({ replicas: 1, readyReplicas: 0, observedGeneration: 1 })
    const again = await hub.call('PUT', `${D()}/status`, patch.body)
    expect(again.body.metadata.resourceVersion).toBe(patch.body.metadata.resourceVersion)
    expect(patch.body.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion)
  })

  it('is 409 with a stale resourceVersion', async () => {
    const current = (await hub.call('GET', D())).body
    const stale = { ...current, metadata: { ...current.metadata, resourceVersion: '1' } }
    const res = await hub.call('PUT', `${D()}/status`, { ...stale, status: { replicas: 5 } })
    expect([res.status, res.body.reason]).toEqual([409, 'Conflict'])
    expect((await hub.call('GET', D())).body.status).toEqual(current.status)
  })

  it('keeps every other write 405', async () => {
    const current = (await hub.call('GET', D())).body
    const spec = { ...current.spec, replicas: 3 }
    const put = await hub.call('PUT', D(), { ...current, spec })
    const labelled = { ...current.metadata, labels: { x: 'y' } }
    const viaStatus = await hub.call('PUT', D(), { ...current, metadata: labelled })
    const del = await hub.call('DELETE', D())
    for (const res of [put, viaStatus, del]) {
      expect([res.status, res.body.reason]).toEqual([405, 'MethodNotAllowed'])
    }
    // a main-resource PUT of only a status change keeps the status, as for any object
    const ignored = await hub.call('PUT', D(), { ...current, status: { replicas: 9 } })
    expect([ignored.status, ignored.body.status]).toEqual([200, current.status])
  })

  it('keeps the status through a manifest change and drops it for a re-created copy', async () => {
    const before = (await hub.call('GET', D())).body
    const v = (await hub.deps.projections.getManifest(mailbox))!.version
    const changed = await hub.deps.projections.writeManifest(mailbox, {
      desired: [deployment(2)],
      expectedVersion: v,
      now: new Date(),
    })
    const after = (await hub.call('GET', D())).body
    expect([after.metadata.generation, after.status]).toEqual([2, before.status])
    const gone = await hub.deps.projections.writeManifest(mailbox, {
      desired: [],
      expectedVersion: changed.manifest.version,
      now: new Date(),
    })
    await hub.deps.projections.writeManifest(mailbox, {
      desired: [deployment(2)],
      expectedVersion: gone.manifest.version,
      now: new Date(),
    })
    const recreated = (await hub.call('GET', D())).body
    expect(recreated.metadata.uid).not.toBe(before.metadata.uid)
    expect(recreated.status).toBeUndefined()
  })
})
