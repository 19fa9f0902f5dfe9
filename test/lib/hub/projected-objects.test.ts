/**
 * Projected copies served by the hub: a manifest written with `deps.projections` shows up in its
 * mailbox space as ordinary ConfigMaps for get, list (paging, selectors) and watch; writes to them
 * are refused; stored objects live alongside; other spaces are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isMailboxPath, mailboxSpaceCheck } from '../../../lib/hub/mailbox-space.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'

let hub: TestHub
let mailbox: string
let plain: string
let version: number

const MB_NAME = 'abcdefghij012345-mb-0f0e0d0c-0b0a-4098-8706-050403020100'
const WORKSPACES = (space: string) => `/clusters/${space}/apis/tenancy.kcp.io/v1alpha1/workspaces`
const cms = (space: string, ns = 'ns1') => `/clusters/${space}/api/v1/namespaces/${ns}/configmaps`

function cm(name: string, namespace = 'ns1', data: Record<string, string> = {}): DesiredEntry {
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: name } },
    data,
  }
  return { group: '', version: 'v1', resource: 'configmaps', namespace, name, body }
}

async function makeSpace(parent: string, name: string): Promise<string> {
  const ws = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name } }
  const res = await hub.call('POST', WORKSPACES(parent), ws)
  expect(res.status).toBe(201)
  return res.body.spec.cluster
}

async function write(desired: DesiredEntry[]): Promise<void> {
  const res = await hub.deps.projections.writeManifest(mailbox, {
    desired,
    expectedVersion: version,
    now: new Date(),
  })
  version = res.manifest.version
}

const names = (body: { items: { metadata: { namespace?: string; name: string } }[] }) =>
  body.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)

beforeAll(async () => {
  hub = await createTestHub()
  mailbox = await makeSpace('root:espw', MB_NAME)
  plain = await makeSpace('root', 'plain')
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } }
  expect((await hub.call('POST', `/clusters/${mailbox}/api/v1/namespaces`, ns)).status).toBe(201)
  const res = await hub.deps.projections.writeManifest(mailbox, {
    desired: [cm('a', 'ns1', { k: '1' }), cm('b'), cm('c'), cm('d', 'ns2')],
    expectedVersion: null,
    now: new Date(),
  })
  version = res.manifest.version
})
afterAll(() => hub.close())

describe('mailbox check', () => {
  it.each([
    [`root:espw:${MB_NAME}`, true],
    ['root:espw', false],
    ['root:espw:not-a-mailbox', false],
    [`root:other:${MB_NAME}`, false],
    [`root:espw:${MB_NAME}:inner`, false],
  ])('%s is a mailbox: %s', (path, expected) => {
    expect(isMailboxPath(path)).toBe(expected)
  })
  it('answers from the space registry', async () => {
    const check = mailboxSpaceCheck(hub.deps.kv)
    expect([
      await check(mailbox),
      await check(plain),
      await check('root'),
      await check('nope'),
    ]).toEqual([true, false, false, false])
  })
})

describe('reads', () => {
  it('gets a projected copy by id and by path, rendered with per-copy metadata', async () => {
    const res = await hub.call('GET', `${cms(mailbox)}/a`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { k: '1' },
      metadata: {
        name: 'a',
        namespace: 'ns1',
        generation: 1,
        annotations: { 'kcp.io/cluster': mailbox },
      },
    })
    expect(res.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/)
    const byPath = await hub.call('GET', `${cms(`root:espw:${MB_NAME}`)}/a`)
    expect(byPath.body).toEqual(res.body)
    expect((await hub.call('GET', `${cms(mailbox)}/zz`)).status).toBe(404)
  })

  it('getMany answers a mailbox key with its copy, other keys from the store, in order', async () => {
    const key = (cluster: string, name: string, namespace = 'ns1') => ({
      cluster,
      group: '',
      resource: 'configmaps',
      namespace,
      name,
    })
    const stored = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'p', namespace: 'default' },
    }
    expect((await hub.call('POST', cms(plain, 'default'), stored)).status).toBe(201)
    const got = await hub.deps.objects.getMany([
      key(plain, 'p', 'default'),
      key(mailbox, 'a'),
      key(mailbox, 'zz'),
      key(plain, 'a'),
      key(mailbox, 'd', 'ns2'),
    ])
    expect(
      got.map((o) => o && `${o.metadata.annotations?.['kcp.io/cluster'] ?? ''}:${o.metadata.name}`)
    ).toEqual([`${plain}:p`, `${mailbox}:a`, undefined, undefined, `${mailbox}:d`])
    expect(got[1]).toEqual((await hub.call('GET', `${cms(mailbox)}/a`)).body)
  })

  it('lists with limit and continue, selectors and all namespaces', async () => {
    const all = await hub.call('GET', cms(mailbox))
    expect(names(all.body)).toEqual(['ns1/a', 'ns1/b', 'ns1/c'])
    expect(Number(all.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(version)
    const p1 = await hub.call('GET', `${cms(mailbox)}?limit=2`)
    expect(names(p1.body)).toEqual(['ns1/a', 'ns1/b'])
    expect(p1.body.metadata.remainingItemCount).toBe(1)
    const token = encodeURIComponent(p1.body.metadata.continue)
    const p2 = await hub.call('GET', `${cms(mailbox)}?limit=2&continue=${token}`)
    expect(names(p2.body)).toEqual(['ns1/c'])
    expect(p2.body.metadata.continue).toBeFalsy()
    expect(p2.body.metadata.resourceVersion).toBe(p1.body.metadata.resourceVersion)
    const other = await hub.call('GET', `${cms(mailbox, 'ns2')}?limit=2&continue=${token}`)
    expect(other.status).toBe(400)
    expect((await hub.call('GET', `${cms(mailbox)}?continue=garbage`)).status).toBe(400)
    const sel = await hub.call('GET', `${cms(mailbox)}?labelSelector=app%3Db`)
    expect(names(sel.body)).toEqual(['ns1/b'])
    const every = await hub.call('GET', `/clusters/${mailbox}/api/v1/configmaps`)
    expect(names(every.body)).toContain('ns2/d')
  })

  it('keeps projected copies out of cross-space lists', async () => {
    const res = await hub.call('GET', '/clusters/*/api/v1/configmaps')
    const clusters = res.body.items.map(
      (o: { metadata: { annotations: Record<string, string> } }) =>
        o.metadata.annotations['kcp.io/cluster']
    )
    expect(clusters).not.toContain(mailbox)
  })
})

describe('writes', () => {
  it('refuses update, patch and delete of a projected copy with 405', async () => {
    const current = (await hub.call('GET', `${cms(mailbox)}/b`)).body
    const message = `configmaps "b" is a projected copy in mailbox ${mailbox}, written by the translator from its workload space; change the source object instead`
    const put = await hub.call('PUT', `${cms(mailbox)}/b`, { ...current, data: { x: 'y' } })
    const patch = await hub.call(
      'PATCH',
      `${cms(mailbox)}/b`,
      { data: { x: 'y' } },
      {
        contentType: 'application/merge-patch+json',
      }
    )
    const del = await hub.call('DELETE', `${cms(mailbox)}/b`)
    for (const res of [put, patch, del]) {
      expect(res.status).toBe(405)
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', message })
    }
    expect((await hub.call('GET', `${cms(mailbox)}/b`)).body).toEqual(current)
  })

  it('refuses to create over a projected copy with 409', async () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }
    const res = await hub.call('POST', cms(mailbox), obj)
    expect([res.status, res.body.reason]).toEqual([409, 'AlreadyExists'])
  })

  it('serves stored objects alongside, a stored object winning over a copy', async () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bb' }, data: { r: '1' } }
    expect((await hub.call('POST', cms(mailbox), obj)).status).toBe(201)
    await write([cm('a', 'ns1', { k: '1' }), cm('b'), cm('bb'), cm('c'), cm('d', 'ns2')])
    const list = await hub.call('GET', cms(mailbox))
    expect(names(list.body)).toEqual(['ns1/a', 'ns1/b', 'ns1/bb', 'ns1/c'])
    expect(list.body.items[2].data).toEqual({ r: '1' })
    const got = await hub.call('GET', `${cms(mailbox)}/bb`)
    expect(got.body.data).toEqual({ r: '1' })
    expect((await hub.call('DELETE', `${cms(mailbox)}/bb`)).status).toBe(200)
    expect((await hub.call('GET', `${cms(mailbox)}/bb`)).body.metadata.labels).toEqual({
      app: 'bb',
    })
  })

  it('leaves other spaces alone', async () => {
    await hub.deps.projections.writeManifest(plain, {
      desired: [cm('a')],
      expectedVersion: null,
      now: new Date(),
    })
    expect((await hub.call('GET', `${cms(plain)}/a`)).status).toBe(404)
    expect((await hub.call('GET', cms(plain))).body.items).toEqual([])
  })
})

/** Opens a watch and returns a reader of its newline-delimited events. */
async function openWatch(path: string, query: string) {
  const res = await hub.app.request(`${BASE}${path}?watch=true&${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  return ndjsonReader(res.body!)
}

describe('watch', () => {
  it('streams the changes of manifest writes in the mailbox and across spaces', async () => {
    const rv = (await hub.call('GET', cms(mailbox))).body.metadata.resourceVersion
    const w = await openWatch(cms(mailbox), `resourceVersion=${rv}`)
    const all = await openWatch('/clusters/*/api/v1/configmaps', `resourceVersion=${rv}`)
    await write([cm('a', 'ns1', { k: '2' }), cm('b'), cm('c'), cm('d', 'ns2')])
    await write([cm('a', 'ns1', { k: '2' }), cm('b'), cm('d', 'ns2')])
    const until = async (x: { next(): Promise<any> }) => {
      const got: any[] = []
      for (;;) {
        const e = await x.next()
        got.push(e)
        if (e.type === 'DELETED' && e.object.metadata.name === 'c') return got
      }
    }
    const events = await until(w)
    const across = await until(all)
    await w.close()
    await all.close()
    for (const got of [events, across]) {
      // the first write changes a and removes what earlier tests left (every event of one write
      // arrives, though they share one resourceVersion); the second removes c
      const names = got.map((e) => [e.type, e.object.metadata.name])
      expect(names[0]).toEqual(['MODIFIED', 'a'])
      expect(names.at(-1)).toEqual(['DELETED', 'c'])
      expect(names.filter(([t]) => t !== 'DELETED')).toEqual([['MODIFIED', 'a']])
      got.splice(1, got.length - 2)
      expect(got[0].object.data).toEqual({ k: '2' })
      expect(got[0].object.metadata.generation).toBe(2)
      expect(got[1].object.metadata.resourceVersion).toBe(String(version))
    }
  })

  it('streams a change of shared content to the watch of a member mailbox', async () => {
    const other = await makeSpace(
      'root:espw',
      'abcdefghij012345-mb-0f0e0d0c-0b0a-4098-8706-0504030201ff'
    )
    const both = (desired: DesiredEntry[]) =>
      Promise.all(
        [mailbox, other].map(async (mb) => {
          const known = (await hub.deps.projections.getManifest(mb)) ?? null
          return hub.deps.projections.writeManifest(mb, {
            ...{ desired, expectedVersion: known?.version ?? null, known, now: new Date() },
            share: 'shared-watch',
          })
        })
      )
    await both([cm('s', 'ns1', { k: '1' })])
    const joined = await hub.deps.projections.getManifest(mailbox)
    expect(joined?.shared).toBeDefined()
    const rv = (await hub.call('GET', cms(mailbox))).body.metadata.resourceVersion
    const w = await openWatch(cms(mailbox), `resourceVersion=${rv}`)
    const [written] = await both([cm('s', 'ns1', { k: '2' })])
    // One shared write, not a write of the mailbox's manifest.
    expect((await hub.deps.projections.getManifest(mailbox))?.version).toBe(joined?.version)
    const e = await w.next()
    await w.close()
    expect([e.type, e.object.metadata.name, e.object.data]).toEqual(['MODIFIED', 's', { k: '2' }])
    expect(e.object.metadata.uid).toBe(joined?.entries[0]?.uid)
    expect(e.object.metadata.annotations['kcp.io/cluster']).toBe(mailbox)
    expect(e.object.metadata.resourceVersion).toBe(String(written?.manifest.entries[0]?.rv))
    // A get and a list read the same copy.
    const got = (await hub.call('GET', `${cms(mailbox)}/s`)).body
    expect(got.data).toEqual({ k: '2' })
    expect(got.metadata.resourceVersion).toBe(e.object.metadata.resourceVersion)
  })

  it('drops the manifest when the mailbox workspace is deleted', async () => {
    expect((await hub.call('DELETE', `${WORKSPACES('root:espw')}/${MB_NAME}`)).status).toBe(200)
    await hub.settle()
    expect(await hub.deps.projections.getManifest(mailbox)).toBeUndefined()
    expect((await hub.call('GET', `${WORKSPACES('root:espw')}/${MB_NAME}`)).status).toBe(404)
  })
})
