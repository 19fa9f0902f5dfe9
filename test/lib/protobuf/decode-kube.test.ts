import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../lib/protobuf/decode-kube.ts'
import { readFields } from '../../../lib/protobuf/wire.ts'
import { failure as apiError } from '../../helpers/api-error.ts'
import { concatBytes, envelope, lenField, msgField, vField } from './helpers/encode.ts'
import { fixtureBytes, loadFixtures } from './helpers/fixtures.ts'
import { GENERATOR_CASES } from './helpers/generator-cases.ts'
import { pruneEmpty } from './helpers/normalize.ts'

const fixtures = loadFixtures()

/** The `raw` bytes of a recorded body (the typed object inside the envelope). */
function rawOf(body: Uint8Array): Uint8Array {
  const raw = readFields(body.subarray(4)).find((f) => f.num === 2)
  if (!raw || !(raw.value instanceof Uint8Array)) throw new Error('no raw field')
  return raw.value
}

function fixture(name: string) {
  const c = fixtures.cases.find((x) => x.name === name)
  if (!c) throw new Error(`no fixture ${name}`)
  return c
}

describe('decodeKubeProtobuf on bodies recorded from kubectl', () => {
  it('has a recording for every generator case (else re-run helpers/record-fixtures.ts)', () => {
    expect(fixtures.cases.map((c) => c.name)).toEqual(GENERATOR_CASES.map((c) => c.name))
  })

  for (const c of fixtures.cases) {
    it(`decodes ${c.name} (${c.args.slice(1, 3).join(' ')}) to what the dry run renders`, () => {
      const decoded = decodeKubeProtobuf(fixtureBytes(c))
      expect(decoded).toEqual(pruneEmpty(c.expected))
    })
  }

  it('keeps what zero values mean: replicas 0, priority value 0', () => {
    const dep = decodeKubeProtobuf(fixtureBytes(fixture('deployment-zero-replicas')))
    expect((dep.spec as { replicas: number }).replicas).toBe(0)
    const pc = decodeKubeProtobuf(fixtureBytes(fixture('priorityclass-zero')))
    expect(pc).toMatchObject({ value: 0, globalDefault: true })
  })

  it('keeps non-UTF-8 file content as binaryData in base64', () => {
    const cm = decodeKubeProtobuf(fixtureBytes(fixture('configmap')))
    expect(cm.binaryData).toEqual({
      blob: Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x41]).toString('base64'),
    })
    expect(cm.data).toMatchObject({ a: '1', empty: '' })
  })
})

describe('decodeKubeProtobuf of what kubectl copies from a defaulted object', () => {
  it('decodes probes and the pod securityContext (an empty one is dropped)', () => {
    const port = msgField(2, vField(1, 0), vField(2, 8080))
    const httpGet = msgField(2, lenField(1, '/healthz'), port, lenField(4, 'HTTP'))
    const probe = msgField(10, msgField(1, httpGet), vField(3, 1), vField(4, 10), vField(6, 3))
    const container = msgField(2, lenField(1, 'app'), probe)
    // Deployment.spec (2) .template (3) .spec (2): the PodSpec's fields
    const deployment = (...podSpec: Uint8Array[]) =>
      decodeKubeProtobuf(
        envelope('apps/v1', 'Deployment', msgField(2, msgField(3, msgField(2, ...podSpec))))
      ) as { spec: { template: { spec: Record<string, unknown> } } }
    const context = msgField(14, vField(2, 1000), vField(3, 1))
    expect(deployment(container, context).spec.template.spec).toEqual({
      containers: [
        {
          name: 'app',
          livenessProbe: {
            httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
            timeoutSeconds: 1,
            periodSeconds: 10,
            failureThreshold: 3,
          },
        },
      ],
      securityContext: { runAsUser: 1000, runAsNonRoot: true },
    })
    const empty = deployment(container, msgField(14))
    expect(empty.spec.template.spec.securityContext).toBeUndefined()
  })
})

describe('decodeKubeProtobuf refusals', () => {
  it('answers an unknown field in a real kubectl body with 415 and the apply hint', () => {
    const real = fixtureBytes(fixture('deployment'))
    const body = envelope('apps/v1', 'Deployment', concatBytes(rawOf(real), vField(99, 1)))
    const e = apiError(() => decodeKubeProtobuf(body))
    expect(e.code).toBe(415)
    expect(e.toStatus().reason).toBe('UnsupportedMediaType')
    expect(e.message).toContain('field number 99 of k8s.io.api.apps.v1.Deployment')
    expect(e.message).toContain('kubectl apply -f')
  })

  it('names the nested type and path of an unknown field', () => {
    const lifecycle = msgField(12, msgField(1))
    const container = msgField(2, lenField(1, 'app'), lifecycle)
    const raw = msgField(2, msgField(3, msgField(2, container)))
    const e = apiError(() => decodeKubeProtobuf(envelope('apps/v1', 'Deployment', raw)))
    expect(e.code).toBe(415)
    expect(e.message).toContain(
      'field number 12 of k8s.io.api.core.v1.Container (at spec.template.spec.containers[0])'
    )
  })

  it('answers a kind without a descriptor with 415', () => {
    const e = apiError(() => decodeKubeProtobuf(envelope('v1', 'Pod', msgField(1))))
    expect(e.code).toBe(415)
    expect(e.message).toContain('cannot decode Pod (v1) from protobuf')
    expect(e.message).toContain('kubectl apply -f')
  })

  it('answers an encoded payload with 415', () => {
    const body = envelope('v1', 'ConfigMap', msgField(1), lenField(3, 'gzip'))
    expect(apiError(() => decodeKubeProtobuf(body)).code).toBe(415)
  })

  it('answers an unknown envelope field with 415', () => {
    const body = envelope('v1', 'ConfigMap', msgField(1), lenField(9, 'x'))
    expect(apiError(() => decodeKubeProtobuf(body)).code).toBe(415)
  })

  it('answers a body without the magic with 400', () => {
    const e = apiError(() => decodeKubeProtobuf(new TextEncoder().encode('{"kind":"ConfigMap"}')))
    expect(e.code).toBe(400)
    expect(e.message).toContain('magic')
  })

  it('answers a truncated body with 400', () => {
    const real = fixtureBytes(fixture('configmap'))
    expect(apiError(() => decodeKubeProtobuf(real.subarray(0, real.length - 3))).code).toBe(400)
  })

  it('answers an envelope without a kind with 400', () => {
    expect(apiError(() => decodeKubeProtobuf(envelope('v1', '', msgField(1)))).code).toBe(400)
  })
})
