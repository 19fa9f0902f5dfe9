import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const NS = '/clusters/root/api/v1/namespaces/rv'
const CMS = `${NS}/configmaps`

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'rv' },
  })
  await hub.call('POST', CMS, cm('a'))
  await hub.call('POST', CMS, cm('b'))
})
afterAll(() => hub.close())

const current = async () => hub.deps.objects.currentRv()

describe('resourceVersion on list and get', () => {
  it.each(['abc', '-1', '1.5', '+3', '18446744073709551616'])(
    'refuses resourceVersion=%s with kube 400',
    async (rv) => {
      const list = await hub.call('GET', `${CMS}?resourceVersion=${encodeURIComponent(rv)}`)
      expect(list.status).toBe(400)
      expect(list.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
      expect(list.body.message).toMatch(
        new RegExp(
          `^invalid resource version: resourceVersion: Invalid value: "${rv.replace('+', '\\+')}": strconv\\.ParseUint: parsing`
        )
      )
      const get = await hub.call('GET', `${CMS}/a?resourceVersion=${encodeURIComponent(rv)}`)
      expect(get.status).toBe(400)
      const watch = await hub.call(
        'GET',
        `${CMS}?watch=1&resourceVersion=${encodeURIComponent(rv)}`
      )
      expect(watch.status).toBe(400)
    }
  )

  it('serves "", "0" and a reached version as the latest state', async () => {
    const rv = await current()
    for (const q of ['', 'resourceVersion=0', `resourceVersion=${rv}`, 'resourceVersion=1']) {
      const res = await hub.call('GET', `${CMS}?${q}`)
      expect(res.status, q).toBe(200)
      expect(res.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b'])
    }
    expect((await hub.call('GET', `${CMS}/a?resourceVersion=${rv}`)).status).toBe(200)
  })

  it('answers a list from a future resourceVersion, after a short wait, with the TooLarge 504', async () => {
    const ahead = (await current()) + 1000
    const started = Date.now()
    const res = await hub.call('GET', `${CMS}?resourceVersion=${ahead}`)
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500)
    expect(res.status).toBe(504)
    expect(res.body).toMatchObject({
      kind: 'Status',
      code: 504,
      reason: 'Timeout',
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    })
    expect(res.body.message).toMatch(/^Timeout: Too large resource version: \d+, current: \d+$/)
  }, 10_000)

  it('answers a get from a future resourceVersion the same way', async () => {
    const ahead = (await current()) + 1000
    const res = await hub.call('GET', `${CMS}/a?resourceVersion=${ahead}`)
    expect(res.status).toBe(504)
    expect(res.body.details.causes[0].reason).toBe('ResourceVersionTooLarge')
  }, 10_000)

  it('treats a zero or negative limit as no limit, as kube does', async () => {
    for (const limit of ['0', '-3']) {
      const res = await hub.call('GET', `${CMS}?limit=${limit}`)
      expect(res.status).toBe(200)
      expect(res.body.items).toHaveLength(2)
      expect(res.body.metadata.continue).toBeUndefined()
    }
    expect((await hub.call('GET', `${CMS}?limit=x`)).status).toBe(400)
  })
})

describe('resourceVersionMatch and the other list options', () => {
  async function invalidList(query: string) {
    const res = await hub.call('GET', `${CMS}?${query}`)
    expect(res.status, query).toBe(422)
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'ListOptions' },
    })
    return res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`)
  }

  it('refuses what kube ValidateListOptions refuses', async () => {
    expect(await invalidList('resourceVersionMatch=NotOlderThan')).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    ])
    expect(await invalidList('resourceVersion=1&resourceVersionMatch=Newest')).toEqual([
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    ])
    expect(await invalidList('resourceVersion=0&resourceVersionMatch=Exact')).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    ])
    expect(await invalidList('resourceVersion=1&resourceVersionMatch=Exact&continue=x')).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    ])
    expect(await invalidList('sendInitialEvents=true')).toEqual([
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    ])
  })

  it('refuses watch options kube refuses for a watch', async () => {
    expect(
      await invalidList('watch=1&resourceVersion=1&resourceVersionMatch=NotOlderThan')
    ).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ])
    expect(await invalidList('watch=1&sendInitialEvents=true')).toEqual([
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ])
    expect(
      await invalidList(
        'watch=1&sendInitialEvents=true&resourceVersion=1&resourceVersionMatch=Exact'
      )
    ).toEqual([
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    ])
  })

  it('refuses a resourceVersion with continue (400)', async () => {
    const page = await hub.call('GET', `${CMS}?limit=1`)
    const token = encodeURIComponent(page.body.metadata.continue)
    const res = await hub.call('GET', `${CMS}?limit=1&continue=${token}&resourceVersion=5`)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('specifying resource version is not allowed when using continue')
    const ok = await hub.call('GET', `${CMS}?limit=1&continue=${token}&resourceVersion=0`)
    expect(ok.status).toBe(200)
    expect(ok.body.items.map((i: any) => i.metadata.name)).toEqual(['b'])
  })

  it('serves NotOlderThan from the latest state', async () => {
    const res = await hub.call('GET', `${CMS}?resourceVersion=1&resourceVersionMatch=NotOlderThan`)
    expect(res.status).toBe(200)
    expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(await current())
  })

  it('serves Exact only while the collection is unchanged since that version, else 410', async () => {
    await hub.call('POST', '/clusters/root/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'exact' },
    })
    const cms = '/clusters/root/api/v1/namespaces/exact/configmaps'
    await hub.call('POST', cms, cm('one'))
    const at = (await hub.call('GET', cms)).body.metadata.resourceVersion
    // a change elsewhere does not matter
    await hub.call('POST', CMS, cm('elsewhere'))
    for (const q of [
      `resourceVersion=${at}&resourceVersionMatch=Exact`,
      `resourceVersion=${at}&limit=10`,
    ]) {
      const res = await hub.call('GET', `${cms}?${q}`)
      expect(res.status, q).toBe(200)
      expect(res.body.metadata.resourceVersion).toBe(at)
      expect(res.body.items.map((i: any) => i.metadata.name)).toEqual(['one'])
    }
    await hub.call('POST', cms, cm('two'))
    const gone = await hub.call('GET', `${cms}?resourceVersion=${at}&resourceVersionMatch=Exact`)
    expect(gone.status).toBe(410)
    expect(gone.body).toMatchObject({ reason: 'Expired', code: 410 })
    // without a limit, a resourceVersion means "not older than": served
    const fresh = await hub.call('GET', `${cms}?resourceVersion=${at}`)
    expect(fresh.body.items.map((i: any) => i.metadata.name)).toEqual(['one', 'two'])
  })
})
