/**
 * Hostile bodies against the API (issue 11, "Crashes"): documents nested 5,000 and 100,000 levels
 * deep in every body format and patch type, a JSON patch that doubles `/data` thirty times, too
 * many operations, too many copied bytes, and YAML alias and merge-key bombs. Each must answer a
 * 4xx kube Status, leave the target object as it was, and leave the hub answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_NESTING_DEPTH } from '../../../lib/patch/json-limits.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { envelope, lenField, msgField } from '../../lib/protobuf/helpers/encode.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['target', 'bomb', 'copies'])
    expect((await hub.call('POST', CMS, cm(name))).status).toBe(201)
})
afterAll(() => hub.close())

const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
})
const JSON_PATCH = 'application/json-patch+json'
const MERGE = 'application/merge-patch+json'
const STRATEGIC = 'application/strategic-merge-patch+json'
const APPLY = 'application/apply-patch+yaml'

const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
const deepArray = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`
const withSpec = (name: string, spec: string) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"spec":${spec}}`

/** The stored object, to compare before and after a refused request. */
async function stored(name: string) {
  const res = await hub.call('GET', `${CMS}/${name}`)
  expect(res.status).toBe(200)
  return res.body
}

/** A request's body and its content type, and the object (`target`) it must leave unchanged. */
type Refusable = { body: string; contentType: string; target?: string }

/** Sends a request that must be refused with a 4xx Status; the target must be unchanged. */
async function refused(method: string, path: string, r: Refusable) {
  const { body, contentType, target = 'target' } = r
  const before = await stored(target)
  const res = await hub.call(method, path, body, { contentType })
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code: res.status })
  expect(typeof res.body.reason).toBe('string')
  expect(await stored(target)).toEqual(before)
  return res
}

describe('deep nesting', () => {
  for (const depth of [5_000, 100_000]) {
    for (const [shape, deep] of [
      ['object', deepObject(depth)],
      ['array', deepArray(depth)],
    ] as const) {
      it(`refuses ${depth} levels (${shape}) in every body format and patch type with 400`, async () => {
        const cases: [string, string, string, string][] = [
          ['POST', CMS, withSpec('deep-new', deep), 'application/json'],
          ['POST', CMS, withSpec('deep-new', deep), 'application/yaml'],
          ['PUT', `${CMS}/target`, withSpec('target', deep), 'application/json'],
          ['PATCH', `${CMS}/target`, `{"spec":${deep}}`, MERGE],
          ['PATCH', `${CMS}/target`, deep, MERGE],
          ['PATCH', `${CMS}/target`, `{"spec":${deep}}`, STRATEGIC],
          ['PATCH', `${CMS}/target`, `[{"op":"add","path":"/spec","value":${deep}}]`, JSON_PATCH],
          ['PATCH', `${CMS}/target`, deep, JSON_PATCH],
          ['PATCH', `${CMS}/target?fieldManager=t`, withSpec('target', deep), APPLY],
          [
            'PATCH',
            `${CMS}/target?fieldManager=t`,
            `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: target}\nspec: ${deep}\n`,
            APPLY,
          ],
          ['DELETE', `${CMS}/target`, `{"kind":"DeleteOptions","x":${deep}}`, 'application/json'],
        ]
        for (const [method, path, body, type] of cases) {
          const res = await refused(method, path, { body, contentType: type })
          expect(res.status).toBe(400)
          expect(res.body.message).toContain(`more than ${MAX_NESTING_DEPTH} levels`)
        }
        expect((await hub.call('GET', `${CMS}/deep-new`)).status).toBe(404)
      })
    }
  }

  it('refuses a protobuf body whose managedFields carry deeply nested JSON', async () => {
    for (const depth of [5_000, 100_000]) {
      const fieldsV1 = msgField(7, lenField(1, deepObject(depth)))
      const meta = msgField(1, lenField(1, 'pb-deep'), msgField(17, lenField(1, 'm'), fieldsV1))
      const res = await hub.app.request(`${BASE}${CMS}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/vnd.kubernetes.protobuf',
        },
        body: new Uint8Array(envelope('v1', 'ConfigMap', meta)),
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        kind: 'Status',
        reason: 'BadRequest',
        message: expect.stringContaining('levels deep'),
      })
    }
    expect((await hub.call('GET', `${CMS}/pb-deep`)).status).toBe(404)
  })

  it('refuses deep YAML block nesting before composing it', async () => {
    let yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep-new\nspec:\n'
    for (let i = 0; i < 600; i++) yaml += `${' '.repeat(i + 2)}a:\n`
    const res = await refused('POST', CMS, { body: yaml, contentType: 'application/yaml' })
    expect(res.status).toBe(400)
  })

  it('accepts an object nested exactly to the limit, and reads it back as a valid body', async () => {
    const spec = deepObject(MAX_NESTING_DEPTH - 1)
    const created = await hub.call('POST', CMS, withSpec('at-limit', spec))
    expect(created.status).toBe(201)
    const patched = await hub.call('PATCH', `${CMS}/at-limit`, `{"spec":${spec}}`, {
      contentType: MERGE,
    })
    expect(patched.status).toBe(200)
    const applied = await hub.call(
      'PATCH',
      `${CMS}/at-limit?fieldManager=t`,
      withSpec('at-limit', spec),
      {
        contentType: APPLY,
      }
    )
    expect(applied.status).toBe(200)
    const again = await hub.call('PUT', `${CMS}/at-limit`, await stored('at-limit'))
    expect(again.status).toBe(200)
    const over = await refused('POST', CMS, {
      body: withSpec('over-limit', deepObject(MAX_NESTING_DEPTH)),
      contentType: 'application/json',
      target: 'at-limit',
    })
    expect(over.status).toBe(400)
  })

  it('refuses a JSON patch that copies a value into itself until it is too deep', async () => {
    await hub.call('PATCH', `${CMS}/target`, '{"spec":{"x":{"x":{"x":{"x":1}}}}}', {
      contentType: MERGE,
    })
    const ops = [{ op: 'copy', from: '/spec', path: '/spec/x/x/x/x' }]
    for (let i = 0; i < 10; i++)
      ops.push({ op: 'copy', from: '/spec', path: `/spec${'/x'.repeat(4 * 2 ** i + 1)}` })
    const res = await refused('PATCH', `${CMS}/target`, {
      body: JSON.stringify(ops),
      contentType: JSON_PATCH,
    })
    expect(res.status).toBe(422)
  })
})

describe('patch bombs', () => {
  it('stops a JSON patch that doubles /data thirty times with 413, with bounded memory', async () => {
    const ops: object[] = [{ op: 'add', path: '/data/seed', value: 'x'.repeat(100_000) }]
    for (let i = 0; i < 30; i++) ops.push({ op: 'copy', from: '/data', path: `/data/d${i}` })
    const body = JSON.stringify(ops)
    expect(body.length).toBeGreaterThan(100_000)
    const heapBefore = process.memoryUsage().heapUsed
    const res = await refused('PATCH', `${CMS}/bomb`, {
      body,
      contentType: JSON_PATCH,
      target: 'bomb',
    })
    const heapAfter = process.memoryUsage().heapUsed
    const grownMiB = (heapAfter - heapBefore) / 2 ** 20
    console.log(`doubling bomb (string): heapUsed grew ${grownMiB.toFixed(1)} MiB`)
    expect(res.status).toBe(413)
    expect(res.body.reason).toBe('RequestEntityTooLarge')
    expect(grownMiB).toBeLessThan(256)
  })

  it('stops the doubling bomb made of many small objects too', async () => {
    const seed = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, { v: i }]))
    const ops: object[] = [{ op: 'add', path: '/spec', value: seed }]
    for (let i = 0; i < 30; i++) ops.push({ op: 'copy', from: '/spec', path: `/spec/d${i}` })
    const heapBefore = process.memoryUsage().heapUsed
    const res = await refused('PATCH', `${CMS}/bomb`, {
      body: JSON.stringify(ops),
      contentType: JSON_PATCH,
      target: 'bomb',
    })
    const grownMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20
    console.log(`doubling bomb (objects): heapUsed grew ${grownMiB.toFixed(1)} MiB`)
    expect(res.status).toBe(413)
    expect(grownMiB).toBeLessThan(256)
  })

  it('refuses more than 10,000 JSON patch operations with 413', async () => {
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/data/a', value: '1' }))
    const res = await refused('PATCH', `${CMS}/bomb`, {
      body: JSON.stringify(ops),
      contentType: JSON_PATCH,
      target: 'bomb',
    })
    expect(res.status).toBe(413)
    expect(res.body.message).toContain('10000')
  })

  it('refuses copies adding up to more than 3 MiB with 422, as kube', async () => {
    const big = 'y'.repeat(400_000)
    expect(
      (await hub.call('PATCH', `${CMS}/copies`, { data: { big } }, { contentType: MERGE })).status
    ).toBe(200)
    const ops: object[] = []
    for (let i = 0; i < 8; i++)
      ops.push(
        { op: 'copy', from: '/data/big', path: '/data/c' },
        { op: 'remove', path: '/data/c' }
      )
    const res = await refused('PATCH', `${CMS}/copies`, {
      body: JSON.stringify(ops),
      contentType: JSON_PATCH,
      target: 'copies',
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toContain('copies')
  })

  it('refuses a merge patch whose result passes the object limit with 413', async () => {
    const data = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`k${i}`, 'z'.repeat(250_000)])
    )
    const res = await refused('PATCH', `${CMS}/bomb`, {
      body: JSON.stringify({ data }),
      contentType: MERGE,
      target: 'bomb',
    })
    expect(res.status).toBe(413)
  })
})

describe('YAML bombs', () => {
  const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yaml-bomb}\n'

  it('refuses an exponential alias bomb', async () => {
    let doc = `${head}data:\n  a0: &a0 "xxxxxxxxxx"\n`
    for (let i = 1; i < 30; i++) doc += `  a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}]\n`
    const res = await refused('POST', CMS, { body: doc, contentType: 'application/yaml' })
    expect(res.status).toBe(400)
  })

  it('refuses merge keys that fan out aliases', async () => {
    let doc = `${head}spec:\n  m0: &m0 {k: v}\n`
    for (let i = 1; i < 30; i++)
      doc += `  m${i}: &m${i}\n    <<: [*m${i - 1}]\n    a: *m${i - 1}\n    b: *m${i - 1}\n`
    const res = await refused('POST', CMS, { body: doc, contentType: 'application/yaml' })
    expect([400, 413]).toContain(res.status)
  })

  it('refuses aliases chained into a document deeper than the limit', async () => {
    const level = 100
    let doc = `${head}spec:\n  c0: &c0 ${'['.repeat(level)}${']'.repeat(level)}\n`
    for (let i = 1; i < 10; i++)
      doc += `  c${i}: &c${i} ${'['.repeat(level)}*c${i - 1}${']'.repeat(level)}\n`
    const res = await refused('POST', CMS, { body: doc, contentType: 'application/yaml' })
    expect(res.status).toBe(400)
  })

  it('refuses a large scalar repeated through aliases past the body limit with 413', async () => {
    let doc = `${head}spec:\n  s: &s "${'q'.repeat(1_000_000)}"\n  list: [`
    doc += Array.from({ length: 5 }, () => '*s').join(', ')
    doc += ']\n'
    const res = await refused('POST', CMS, { body: doc, contentType: 'application/yaml' })
    expect(res.status).toBe(413)
  })

  it('honours a plain merge key', async () => {
    const doc = `${head}data:\n  <<: {a: "1", b: "2"}\n  c: "3"\n`
    const res = await hub.call('POST', CMS, doc, { contentType: 'application/yaml' })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ a: '1', b: '2', c: '3' })
  })
})

it('still answers after every refusal', async () => {
  expect((await hub.call('GET', '/healthz', undefined, { token: null })).status).toBe(200)
  expect((await hub.call('GET', CMS)).status).toBe(200)
})
