/**
 * The cross-workspace view's WORKSPACE column: a Table list and a Table watch of `/clusters/*`
 * print each object's workspace path first; a plain list keeps the objects (with their
 * `kcp.io/cluster` id) and a one-space Table has no such column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'
const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })

let hub: TestHub
let colsId = ''
beforeAll(async () => {
  hub = await createTestHub()
  const ws = {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'cols' },
  }
  colsId = (await hub.call('POST', `/clusters/root${WS}`, ws)).body.spec.cluster
  await hub.call('POST', '/clusters/root:cols/api/v1/namespaces', ns('shop'))
  await hub.call('POST', '/clusters/root/api/v1/namespaces', ns('shop'))
})
afterAll(() => hub.close())

type Row = { cells: unknown[] }

describe('the WORKSPACE column of /clusters/*', () => {
  it('comes first in a Table list, with each row its path', async () => {
    const res = await hub.call('GET', '/clusters/*/api/v1/namespaces', undefined, { accept: TABLE })
    expect(res.status).toBe(200)
    const names = res.body.columnDefinitions.map((c: { name: string }) => c.name)
    expect(names).toEqual(['Workspace', 'Name', 'Status', 'Age'])
    const shops = res.body.rows
      .filter((r: Row) => r.cells[1] === 'shop')
      .map((r: Row) => r.cells[0])
      .sort()
    expect(shops).toEqual(['root', 'root:cols'])
    const plain = await hub.call('GET', '/clusters/*/api/v1/namespaces')
    const ids = plain.body.items
      .filter((i: any) => i.metadata.name === 'shop')
      .map((i: any) => i.metadata.annotations['kcp.io/cluster'])
    expect(ids.sort()).toEqual([colsId, 'root'].sort())
    const one = await hub.call('GET', '/clusters/root:cols/api/v1/namespaces', undefined, {
      accept: TABLE,
    })
    expect(one.body.columnDefinitions[0].name).toBe('Name')
  })

  it('comes first in a Table watch', async () => {
    const list = await hub.call('GET', '/clusters/*/api/v1/namespaces')
    const rv = list.body.metadata.resourceVersion
    const res = await hub.app.request(
      `${BASE}/clusters/*/api/v1/namespaces?watch=true&resourceVersion=${rv}`,
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: TABLE } }
    )
    const reader = res.body!.getReader()
    await hub.call('POST', '/clusters/root:cols/api/v1/namespaces', ns('late'))
    let text = ''
    while (!text.includes('\n')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    await reader.cancel()
    const event = JSON.parse(text.slice(0, text.indexOf('\n')))
    expect(event.type).toBe('ADDED')
    expect(event.object.columnDefinitions[0].name).toBe('Workspace')
    expect(event.object.rows[0].cells.slice(0, 2)).toEqual(['root:cols', 'late'])
  })
})
