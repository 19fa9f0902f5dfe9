/**
 * DeleteOptions through app.request(), for one object and for a collection: a gracePeriodSeconds
 * that is no int64 is 400 with Go's strconv message, an invalid dryRun (any value of the repeated
 * parameter), propagationPolicy or orphanDependents+propagationPolicy is 422 Invalid; nothing is
 * deleted in either case. With a body, kube reads the options from the body only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'del' } }
  expect((await hub.call('POST', '/api/v1/namespaces', ns)).status).toBe(201)
})
afterAll(() => hub.close())

const CMS = '/api/v1/namespaces/del/configmaps'
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })

beforeEach(async () => {
  for (const name of ['a', 'b']) await hub.call('POST', CMS, cm(name))
})

async function names(): Promise<string[]> {
  const res = await hub.call('GET', CMS)
  return res.body.items.map((i: any) => i.metadata.name).sort()
}

const REFUSED: [string, number, string][] = [
  ['gracePeriodSeconds=x', 400, 'strconv.ParseInt: parsing "x": invalid syntax'],
  ['gracePeriodSeconds=1e99', 400, 'strconv.ParseInt: parsing "1e99": invalid syntax'],
  [
    'gracePeriodSeconds=9223372036854775808',
    400,
    'strconv.ParseInt: parsing "9223372036854775808": value out of range',
  ],
  [
    'dryRun=All&dryRun=bogus',
    422,
    'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "bogus"}: supported values: "All"',
  ],
  [
    'propagationPolicy=x',
    422,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "x": supported values: "Foreground", "Background", "Orphan", "nil"',
  ],
  [
    'orphanDependents=true&propagationPolicy=Orphan',
    422,
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  ],
]

describe('DeleteOptions in the query', () => {
  it.each(REFUSED)('refuses ?%s on one object (%i), deleting nothing', async (q, code, message) => {
    const res = await hub.call('DELETE', `${CMS}/a?${q}`)
    expect([res.status, res.body.message]).toEqual([code, message])
    expect(await names()).toEqual(['a', 'b'])
  })

  it.each(REFUSED)(
    'refuses ?%s on a collection (%i), deleting nothing',
    async (q, code, message) => {
      const res = await hub.call('DELETE', `${CMS}?${q}`)
      expect([res.status, res.body.message]).toEqual([code, message])
      expect(await names()).toEqual(['a', 'b'])
    }
  )

  it('takes a valid grace period and a dry run', async () => {
    const dry = await hub.call('DELETE', `${CMS}?gracePeriodSeconds=-1&dryRun=All&dryRun=All`)
    expect([dry.status, dry.body.items.length]).toEqual([200, 2])
    expect(await names()).toEqual(['a', 'b'])
    expect((await hub.call('DELETE', `${CMS}/a?gracePeriodSeconds=0`)).status).toBe(200)
    expect(await names()).toEqual(['b'])
  })
})

describe('DeleteOptions in a body', () => {
  it('reads them from the body, ignoring the query', async () => {
    const res = await hub.call('DELETE', `${CMS}/a?gracePeriodSeconds=x&dryRun=bogus`, {
      dryRun: ['All'],
    })
    expect(res.status).toBe(200)
    expect(await names()).toEqual(['a', 'b'])
  })

  it('refuses invalid body options before deleting anything', async () => {
    const bad = { propagationPolicy: 'Later' }
    for (const path of [`${CMS}/a`, CMS]) {
      const res = await hub.call('DELETE', path, bad)
      expect([res.status, res.body.reason]).toEqual([422, 'Invalid'])
      expect((await hub.call('DELETE', path, { gracePeriodSeconds: 'soon' })).status).toBe(400)
    }
    expect(await names()).toEqual(['a', 'b'])
  })
})
