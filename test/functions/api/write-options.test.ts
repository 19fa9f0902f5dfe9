/**
 * The options of create, update and patch through app.request(), as kube's Validate*Options
 * check them: every dryRun value must be "All", a fieldManager at most 128 bytes of printable
 * characters, fieldValidation one kube knows, and `force` only on apply; else 422 Invalid on the
 * verb's options kind, with nothing written. Reads ignore these parameters, as kube does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wo' } }
  expect((await hub.call('POST', '/api/v1/namespaces', ns)).status).toBe(201)
  expect((await hub.call('POST', CMS, cm('x', '0'))).status).toBe(201)
})
afterAll(() => hub.close())

const CMS = '/api/v1/namespaces/wo/configmaps'
const MERGE = 'application/merge-patch+json'
const cm = (name: string, v: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
})

async function value(): Promise<string> {
  return (await hub.call('GET', `${CMS}/x`)).body.data.v
}

/** The three writes with query `q`: [kind, status, message] each, and nothing stored. */
async function writes(q: string) {
  const create = await hub.call('POST', `${CMS}?${q}`, cm('new', '1'))
  const update = await hub.call('PUT', `${CMS}/x?${q}`, cm('x', '2'))
  const patch = await hub.call(
    'PATCH',
    `${CMS}/x?${q}`,
    { data: { v: '3' } },
    { contentType: MERGE }
  )
  expect((await hub.call('GET', `${CMS}/new`)).status).toBe(404)
  expect(await value()).toBe('0')
  return [create, update, patch].map((r) => [r.status, r.body.reason, r.body.message])
}

const expected = (detail: string) =>
  ['Create', 'Update', 'Patch'].map((k) => [
    422,
    'Invalid',
    `${k}Options.meta.k8s.io "" is invalid: ${detail}`,
  ])

describe('write options', () => {
  it('refuses a repeated dryRun with any value but All', async () => {
    expect(await writes('dryRun=All&dryRun=bogus')).toEqual(
      expected('dryRun: Unsupported value: []string{"All", "bogus"}: supported values: "All"')
    )
    expect(await writes('dryRun=true')).toEqual(
      expected('dryRun: Unsupported value: []string{"true"}: supported values: "All"')
    )
  })

  it('refuses a fieldManager with a non-printable character, naming its byte position', async () => {
    expect(await writes('fieldManager=%C3%A9%00')).toEqual(
      expected('fieldManager: Invalid value: "é\\x00": invalid character U+0000 (at position 2)')
    )
    expect(await writes('fieldManager=a%C2%A0')).toEqual(
      expected('fieldManager: Invalid value: "a\\u00a0": invalid character U+00A0 (at position 1)')
    )
  })

  it('refuses a fieldManager longer than 128 bytes, counting UTF-8 bytes', async () => {
    expect(await writes(`fieldManager=${'é'.repeat(65)}`)).toEqual(
      expected('fieldManager: Too long: must have at most 128 bytes')
    )
    const ok = await hub.call('PUT', `${CMS}/x?fieldManager=${'é'.repeat(64)}`, cm('x', '0'))
    expect(ok.status).toBe(200)
  })

  it('refuses an unknown fieldValidation and takes the empty one', async () => {
    expect(await writes('fieldValidation=Strictest')).toEqual(
      expected(
        'fieldValidation: Unsupported value: "Strictest": supported values: "", "Ignore", "Strict", "Warn"'
      )
    )
    expect((await hub.call('PUT', `${CMS}/x?fieldValidation=`, cm('x', '0'))).status).toBe(200)
  })

  it('refuses force on a patch other than apply', async () => {
    const res = await hub.call(
      'PATCH',
      `${CMS}/x?force=false`,
      { data: { v: '3' } },
      {
        contentType: MERGE,
      }
    )
    expect([res.status, res.body.message]).toEqual([
      422,
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    ])
    expect(await value()).toBe('0')
  })

  it('lists every error at once', async () => {
    const res = await hub.call('POST', `${CMS}?dryRun=x&fieldManager=%01`, cm('new', '1'))
    expect(res.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "\\x01": invalid character U+0001 (at position 0), dryRun: Unsupported value: []string{"x"}: supported values: "All"]'
    )
    expect(res.body.details.causes.map((c: any) => c.field)).toEqual(['fieldManager', 'dryRun'])
  })

  it('ignores these parameters on reads, as kube does', async () => {
    const q = 'dryRun=bogus&fieldManager=%00&fieldValidation=x&force=1'
    expect((await hub.call('GET', `${CMS}/x?${q}`)).status).toBe(200)
    expect((await hub.call('GET', `${CMS}?${q}`)).status).toBe(200)
  })

  it('still honours dryRun=All and a printable fieldManager', async () => {
    const dry = await hub.call('PUT', `${CMS}/x?dryRun=All&fieldManager=me%20too`, cm('x', '9'))
    expect(dry.status).toBe(200)
    expect(await value()).toBe('0')
  })
})
