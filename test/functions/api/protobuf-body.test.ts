import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isProtobuf } from '../../../functions/api/protobuf-body.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import {
  concatBytes,
  envelope,
  lenField,
  msgField,
  vField,
} from '../../lib/protobuf/helpers/encode.ts'
import { fixtureBytes, loadFixtures } from '../../lib/protobuf/helpers/fixtures.ts'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'
const fixtures = loadFixtures()

function recorded(name: string): Uint8Array {
  const c = fixtures.cases.find((x) => x.name === name)
  if (!c) throw new Error(`no fixture ${name}`)
  return fixtureBytes(c)
}

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

async function post(path: string, body: Uint8Array, contentType = PROTOBUF) {
  const res = await hub.app.request(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': contentType,
      accept: `${PROTOBUF},application/json`,
    },
    body: new Uint8Array(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('isProtobuf', () => {
  it('recognizes the kube protobuf media type with or without parameters', () => {
    expect(isProtobuf(PROTOBUF)).toBe(true)
    expect(isProtobuf('Application/VND.Kubernetes.Protobuf; charset=binary')).toBe(true)
  })
  it('is false for everything else', () => {
    expect(isProtobuf('application/json')).toBe(false)
    expect(isProtobuf('application/x-protobuf')).toBe(false)
    expect(isProtobuf(undefined)).toBe(false)
    expect(isProtobuf(null)).toBe(false)
  })
})

describe('creating from the protobuf bodies kubectl sends', () => {
  it('creates a namespace, then a configmap with text and binary data in it', async () => {
    const ns = await post('/clusters/root/api/v1/namespaces', recorded('namespace'))
    expect(ns.status).toBe(201)
    expect(ns.body.metadata.name).toBe('pb-demo')
    const cm = await post(
      '/clusters/root/api/v1/namespaces/pb-demo/configmaps',
      recorded('configmap')
    )
    expect(cm.status).toBe(201)
    const got = await hub.call('GET', '/clusters/root/api/v1/namespaces/pb-demo/configmaps/pb-cm')
    expect(got.status).toBe(200)
    expect(got.body.data).toMatchObject({ a: '1', empty: '' })
    expect(got.body.binaryData).toEqual({ blob: '//4AgEE=' })
  })

  it('creates a deployment with its replicas, template and container', async () => {
    const res = await post(
      '/clusters/root/apis/apps/v1/namespaces/pb-demo/deployments',
      recorded('deployment')
    )
    expect(res.status).toBe(201)
    const got = await hub.call(
      'GET',
      '/clusters/root/apis/apps/v1/namespaces/pb-demo/deployments/pb-dep'
    )
    expect(got.body.spec.replicas).toBe(2)
    expect(got.body.spec.template.spec.containers[0]).toMatchObject({
      name: 'nginx',
      image: 'nginx:1.27',
      command: ['nginx', '-g', 'daemon off;'],
      ports: [{ containerPort: 80 }],
    })
  })
})

describe('protobuf bodies the hub refuses', () => {
  it('answers an unknown field with a 415 Status pointing at kubectl apply, storing nothing', async () => {
    const raw = concatBytes(msgField(1, lenField(1, 'pb-odd')), vField(42, 1))
    const res = await post(
      '/clusters/root/api/v1/namespaces/pb-demo/configmaps',
      envelope('v1', 'ConfigMap', raw)
    )
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 })
    expect(res.body.message).toContain('field number 42 of k8s.io.api.core.v1.ConfigMap')
    expect(res.body.message).toContain('kubectl apply -f')
    const got = await hub.call('GET', '/clusters/root/api/v1/namespaces/pb-demo/configmaps/pb-odd')
    expect(got.status).toBe(404)
  })

  it('answers a kind it cannot decode with 415', async () => {
    const res = await post(
      '/clusters/root/api/v1/namespaces/pb-demo/pods',
      envelope('v1', 'Pod', msgField(1))
    )
    expect(res.status).toBe(415)
  })

  it('answers bytes that are not a kube protobuf body with 400', async () => {
    const res = await post('/clusters/root/api/v1/namespaces', new TextEncoder().encode('{}'))
    expect(res.status).toBe(400)
    expect(res.body.reason).toBe('BadRequest')
  })

  it('still refuses other protobuf media types with 415', async () => {
    const res = await post(
      '/clusters/root/api/v1/namespaces',
      recorded('namespace'),
      'application/x-protobuf'
    )
    expect(res.status).toBe(415)
  })
})
