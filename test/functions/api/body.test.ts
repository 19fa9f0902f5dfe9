/**
 * Request body encodings (functions/api/body.ts, issue 11): a body that is not UTF-8 is a 400 and
 * nothing is stored; a JSON body may not begin with a byte-order mark (Go's encoding/json refuses
 * it) while a YAML body may (goyaml skips it); and a warning about a field whose name holds
 * non-Latin-1 characters (U+FFFD) never turns a stored write into a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['cm-a', 'cm-b'])
    expect((await hub.call('POST', CMS, cm(name))).status).toBe(201)
})
afterAll(() => hub.close())

const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
  ...extra,
})

/** `{"<ff fe 80>":1}`: a key of bytes that are no UTF-8 at all. */
const INVALID_UTF8 = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x80, 0x22, 0x3a, 0x31, 0x7d])
const BOM = '\ufeff'

async function send(
  method: string,
  path: string,
  body: Uint8Array<ArrayBuffer> | string,
  type: string
) {
  const res = await hub.app.request(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': type },
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  })
  return { status: res.status, body: (await res.json()) as any, headers: res.headers }
}

const rvOf = async (name: string) =>
  (await hub.call('GET', `${CMS}/${name}`)).body.metadata.resourceVersion as string

describe('a body that is not UTF-8', () => {
  it.each([
    ['PUT', 'application/json'],
    ['PUT', 'application/yaml'],
    ['PATCH', 'application/merge-patch+json'],
    ['PATCH', 'application/strategic-merge-patch+json'],
    ['PATCH', 'application/apply-patch+yaml'],
  ])('%s as %s is 400 and changes nothing', async (method, type) => {
    const before = await rvOf('cm-a')
    const res = await send(method, `${CMS}/cm-a?fieldManager=t`, INVALID_UTF8, type)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
    expect(res.body.message).toContain('not valid UTF-8')
    expect(await rvOf('cm-a')).toBe(before)
  })

  it('in a value of a create is 400 and creates nothing', async () => {
    const head = new TextEncoder().encode(JSON.stringify(cm('cm-x')).replace('"1"}', '"'))
    const body = new Uint8Array([...head, 0xc3, 0x28, 0x22, 0x7d, 0x7d])
    const res = await send('POST', CMS, body, 'application/json')
    expect(res.status).toBe(400)
    expect((await hub.call('GET', `${CMS}/cm-x`)).status).toBe(404)
  })
})

describe('a byte-order mark', () => {
  it.each([
    ['PUT', 'application/json'],
    ['PATCH', 'application/merge-patch+json'],
    ['PATCH', 'application/strategic-merge-patch+json'],
    ['PATCH', 'application/json-patch+json'],
  ])('before JSON (%s as %s) is 400 and changes nothing', async (method, type) => {
    const before = await rvOf('cm-a')
    const body = type.includes('json-patch')
      ? `${BOM}[{"op":"add","path":"/data/b","value":"2"}]`
      : `${BOM}${JSON.stringify(cm('cm-a', { data: { a: '1', b: '2' } }))}`
    const res = await send(method, `${CMS}/cm-a`, body, type)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('byte-order mark')
    expect(await rvOf('cm-a')).toBe(before)
  })

  it('alone is not an empty JSON body', async () => {
    const res = await send('POST', CMS, BOM, 'application/json')
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('byte-order mark')
  })

  it('before YAML is skipped, as goyaml does', async () => {
    const res = await send(
      'PUT',
      `${CMS}/cm-b`,
      `${BOM}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-b\ndata:\n  a: yaml\n`,
      'application/yaml'
    )
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ a: 'yaml' })
  })
})

describe('a field name outside Latin-1', () => {
  const odd = '\ufffd\ufffd'

  it('is warned about in a UTF-8 Warning header, and the write is answered', async () => {
    const res = await send(
      'PATCH',
      `${CMS}/cm-b`,
      JSON.stringify({ [odd]: 1 }),
      'application/merge-patch+json'
    )
    expect(res.status).toBe(200)
    const warning = res.headers.get('warning') ?? ''
    // the header carries the UTF-8 bytes of the text, one byte per character (as Go writes it)
    const bytes = Uint8Array.from(warning, (c) => c.charCodeAt(0))
    expect(new TextDecoder().decode(bytes)).toContain(odd)
  })

  it('an object that holds such a key can still be patched, read and updated', async () => {
    const held = await send(
      'PUT',
      `${CMS}/cm-b`,
      JSON.stringify(cm('cm-b', { [odd]: 1 })),
      'application/json'
    )
    expect(held.status).toBe(200)
    for (const type of ['application/strategic-merge-patch+json', 'application/merge-patch+json']) {
      const patch = await send('PATCH', `${CMS}/cm-b`, '{"data":{"c":"3"}}', type)
      expect(patch.status).toBe(200)
    }
    expect((await hub.call('GET', `${CMS}/cm-b`)).status).toBe(200)
    expect((await hub.call('GET', CMS)).status).toBe(200)
    const put = await send('PUT', `${CMS}/cm-b`, JSON.stringify(cm('cm-b')), 'application/json')
    expect(put.status).toBe(200)
  })
})
