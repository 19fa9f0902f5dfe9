/** The default field manager is the User-Agent's prefix, as apiserver's prefixFromUserAgent. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { managerFromUserAgent } from '../../../functions/api/user-agent.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

describe('managerFromUserAgent', () => {
  it.each([
    ['OpenAPI-Generator/22.6.0/python', 'OpenAPI-Generator'],
    ['rest-client/2.1.0 (linux x86_64) ruby/3.1.2p20', 'rest-client'],
    ['kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef', 'kubectl'],
    ['no-slash', 'no-slash'],
    ['tab\there/1', 'tabhere'],
  ])('%s → %s', (ua, manager) => {
    expect(managerFromUserAgent(ua)).toBe(manager)
  })

  it('is undefined for an empty or missing User-Agent, and at most 128 characters', () => {
    expect(managerFromUserAgent('')).toBeUndefined()
    expect(managerFromUserAgent(null)).toBeUndefined()
    expect(managerFromUserAgent('/1.0')).toBeUndefined()
    expect(managerFromUserAgent(`${'x'.repeat(300)}/1`)).toHaveLength(128)
  })
})

describe('through the API', () => {
  let hub: TestHub
  beforeAll(async () => {
    hub = await createTestHub()
  })
  afterAll(() => hub.close())

  it('records the User-Agent prefix as the manager of a write that names none', async () => {
    const res = await hub.app.request(`${BASE}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        'user-agent': 'OpenAPI-Generator/22.6.0/python',
      },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ua' } }),
    })
    expect(res.status).toBe(201)
    const body = (await res.json()) as { metadata: { managedFields: { manager: string }[] } }
    expect(body.metadata.managedFields.map((f) => f.manager)).toEqual(['OpenAPI-Generator'])
  })

  it('still requires an explicit fieldManager for apply', async () => {
    const res = await hub.app.request(`${BASE}/api/v1/namespaces/default/configmaps/ua2`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/apply-patch+yaml',
        'user-agent': 'kubectl/v1.32.0',
      },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ua2' } }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toBe(
      'fieldManager is required for apply requests'
    )
  })
})
