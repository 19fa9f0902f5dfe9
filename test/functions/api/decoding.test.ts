/**
 * Bodies kube-apiserver refuses while decoding or naming them, before any validation: a create or
 * update whose metadata does not fit ObjectMeta's Go types (a creationTimestamp that is not
 * RFC 3339, a managedFields entry whose manager is a number) is 400 with kube's decoding message
 * and stores nothing; a patch that leaves the object without the URL's name (a JSON patch moving
 * `/metadata/name` away, a merge patch nulling it) fails kube's checkName (400) and changes
 * nothing. `force` on apply is a kube boolean: anything but absent, "0" or "false" forces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const NS = '/clusters/root/api/v1/namespaces'
const CMS = `${NS}/dec/configmaps`
const DEPLOYS = '/clusters/root/apis/apps/v1/namespaces/dec/deployments'
const JSON_PATCH = { contentType: 'application/json-patch+json' }
const MERGE = { contentType: 'application/merge-patch+json' }
const APPLY = { contentType: 'application/apply-patch+yaml' }

const cm = (name: string, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...meta },
  data: { a: '1' },
})

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dec' } })
  expect((await hub.call('POST', CMS, cm('kept'))).status).toBe(201)
})
afterAll(() => hub.close())

describe('metadata that does not decode', () => {
  it('a create whose creationTimestamp is "yesterday" is 400 and stores nothing', async () => {
    const res = await hub.call('POST', CMS, cm('when', { creationTimestamp: 'yesterday' }))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 })
    expect(res.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'
    )
    expect((await hub.call('GET', `${CMS}/when`)).status).toBe(404)
  })

  it('a create whose managedFields entry has manager 1 is 400 and stores nothing', async () => {
    const entry = { manager: 1, operation: 'Update', apiVersion: 'v1' }
    const res = await hub.call('POST', CMS, cm('who', { managedFields: [entry] }))
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.manager of type string'
    )
    expect((await hub.call('GET', `${CMS}/who`)).status).toBe(404)
  })

  it('a Deployment names its own kind and version', async () => {
    const res = await hub.call('POST', DEPLOYS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', creationTimestamp: '2024-02-30T00:00:00Z' },
      spec: {},
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: parsing time "2024-02-30T00:00:00Z": day out of range'
    )
  })

  it('an update with a managedFields time that is not a time is 400 and changes nothing', async () => {
    const before = (await hub.call('GET', `${CMS}/kept`)).body
    const bad = { ...before, metadata: { ...before.metadata, managedFields: [{ time: 'soon' }] } }
    const res = await hub.call('PUT', `${CMS}/kept`, bad)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('parsing time "soon"')
    expect((await hub.call('GET', `${CMS}/kept`)).body).toEqual(before)
  })

  it('a well-formed time a client sends is still replaced by the server', async () => {
    const res = await hub.call(
      'POST',
      CMS,
      cm('old', { creationTimestamp: '1999-01-01T00:00:00Z' })
    )
    expect(res.status).toBe(201)
    expect(res.body.metadata.creationTimestamp).not.toBe('1999-01-01T00:00:00Z')
  })
})

describe("kube's checkName on patches", () => {
  it('a JSON patch moving /metadata/name away is 400 and changes nothing', async () => {
    const before = (await hub.call('GET', `${CMS}/kept`)).body
    const move = [{ op: 'move', from: '/metadata/name', path: '/metadata/generateName' }]
    const res = await hub.call('PATCH', `${CMS}/kept`, move, JSON_PATCH)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'the name of the object (kept based on URL) was undeterminable: name must be provided'
    )
    expect((await hub.call('GET', `${CMS}/kept`)).body).toEqual(before)
  })

  it('a merge patch nulling the name is 400 too', async () => {
    const res = await hub.call('PATCH', `${CMS}/kept`, { metadata: { name: null } }, MERGE)
    expect(res.status).toBe(400)
    expect(res.body.reason).toBe('BadRequest')
  })

  it('a JSON patch moving the name to another value is the name mismatch', async () => {
    const copy = [{ op: 'replace', path: '/metadata/name', value: 'other' }]
    const res = await hub.call('PATCH', `${CMS}/kept`, copy, JSON_PATCH)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      'the name of the object (other) does not match the name on the URL (kept)'
    )
  })
})

describe('force on apply', () => {
  it('force=maybe forces, as apimachinery converts any other value to true', async () => {
    const applied = (data: Record<string, string>) => ({ ...cm('forced'), data })
    const first = await hub.call(
      'PATCH',
      `${CMS}/forced?fieldManager=one`,
      applied({ a: '1' }),
      APPLY
    )
    expect(first.status).toBe(201)
    const refused = await hub.call(
      'PATCH',
      `${CMS}/forced?fieldManager=two`,
      applied({ a: '2' }),
      APPLY
    )
    expect(refused.status).toBe(409)
    const forced = await hub.call(
      'PATCH',
      `${CMS}/forced?fieldManager=two&force=maybe`,
      applied({ a: '2' }),
      APPLY
    )
    expect(forced.status).toBe(200)
    expect(forced.body.data).toEqual({ a: '2' })
  })
})
