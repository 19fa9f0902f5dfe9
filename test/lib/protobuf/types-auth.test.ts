/**
 * The self-review descriptors: bodies recorded from `kubectl auth whoami`, `auth can-i` (a
 * resource, a subresource, a non-resource URL) and `auth can-i --list` (kubectl v1.32) decode to
 * the reviews they stand for; selector attributes and present-but-empty attributes decode too;
 * fields the descriptors do not know are a 415, never dropped.
 */
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../lib/protobuf/decode-kube.ts'
import { failure as apiError } from '../../helpers/api-error.ts'
import { concatBytes, envelope, lenField, msgField, vField } from './helpers/encode.ts'

const AUTHN = 'authentication.k8s.io/v1'
const AUTHZ = 'authorization.k8s.io/v1'

/** Bodies kubectl v1.32 posted to a capture hub, as hex. */
const RECORDED = {
  whoami:
    '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200',
  canICreateDeployments:
    '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577124a0a100a0012001a0022002a00320038004200122c0a2a0a0764656661756c7412066372656174651a046170707322002a0b6465706c6f796d656e747332003a001a08080012001a0020001a002200',
  canIGetPodLogs:
    '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a65637441636365737352657669657712430a100a0012001a0022002a0032003800420012250a230a0b6b7562652d73797374656d12036765741a0022002a04706f647332036c6f673a001a08080012001a0020001a002200',
  canIGetNamedDeployment:
    '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577124a0a100a0012001a0022002a00320038004200122c0a2a0a0764656661756c7412036765741a046170707322002a0b6465706c6f796d656e747332003a037765621a08080012001a0020001a002200',
  canIGetLogsUrl:
    '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577122d0a100a0012001a0022002a00320038004200120f120d0a062f6c6f67732f12036765741a08080012001a0020001a002200',
  canIList:
    '6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c6573526576696577121f0a100a0012001a0022002a0032003800420012050a03666f6f1a04180022001a002200',
}

const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'))

describe('self reviews recorded from kubectl', () => {
  it('whoami: an empty SelfSubjectReview', () => {
    expect(decodeKubeProtobuf(bytes(RECORDED.whoami))).toEqual({
      apiVersion: AUTHN,
      kind: 'SelfSubjectReview',
    })
  })

  it('can-i create deployments: resource attributes with namespace, verb, group, resource', () => {
    expect(decodeKubeProtobuf(bytes(RECORDED.canICreateDeployments))).toEqual({
      apiVersion: AUTHZ,
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'create',
          group: 'apps',
          resource: 'deployments',
        },
      },
    })
  })

  it('can-i get pods --subresource=log and get deployments/web', () => {
    const logs = decodeKubeProtobuf(bytes(RECORDED.canIGetPodLogs))
    expect(logs.spec).toEqual({
      resourceAttributes: {
        namespace: 'kube-system',
        verb: 'get',
        resource: 'pods',
        subresource: 'log',
      },
    })
    const named = decodeKubeProtobuf(bytes(RECORDED.canIGetNamedDeployment))
    expect((named.spec as { resourceAttributes: { name: string } }).resourceAttributes.name).toBe(
      'web'
    )
  })

  it('can-i get /logs/: non-resource attributes', () => {
    expect(decodeKubeProtobuf(bytes(RECORDED.canIGetLogsUrl)).spec).toEqual({
      nonResourceAttributes: { path: '/logs/', verb: 'get' },
    })
  })

  it('can-i --list -n foo: a SelfSubjectRulesReview for the namespace', () => {
    expect(decodeKubeProtobuf(bytes(RECORDED.canIList))).toEqual({
      apiVersion: AUTHZ,
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'foo' },
    })
  })
})

const accessReview = (...spec: Uint8Array[]) =>
  envelope(AUTHZ, 'SelfSubjectAccessReview', msgField(2, ...spec))

describe('self reviews crafted', () => {
  it('decodes field and label selector attributes', () => {
    const attrs = msgField(
      1,
      lenField(2, 'list'),
      lenField(5, 'pods'),
      msgField(8, msgField(2, lenField(1, 'spec.nodeName'), lenField(2, 'In'), lenField(3, 'n1'))),
      msgField(9, lenField(1, 'app=web'))
    )
    expect(decodeKubeProtobuf(accessReview(attrs)).spec).toEqual({
      resourceAttributes: {
        verb: 'list',
        resource: 'pods',
        fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] },
        labelSelector: { rawSelector: 'app=web' },
      },
    })
  })

  it('keeps present-but-empty resource attributes (a Go pointer)', () => {
    expect(decodeKubeProtobuf(accessReview(msgField(1))).spec).toEqual({ resourceAttributes: {} })
  })

  it('decodes a filled-in status (allowed, reason) and rules', () => {
    const sar = envelope(
      AUTHZ,
      'SelfSubjectAccessReview',
      concatBytes(msgField(3, vField(1, true), lenField(2, 'ok')))
    )
    expect(decodeKubeProtobuf(sar).status).toEqual({ allowed: true, reason: 'ok' })
    const rules = envelope(
      AUTHZ,
      'SelfSubjectRulesReview',
      msgField(3, msgField(1, lenField(1, 'get'), lenField(3, 'pods')), vField(3, true))
    )
    expect(decodeKubeProtobuf(rules).status).toEqual({
      resourceRules: [{ verbs: ['get'], resources: ['pods'] }],
      incomplete: true,
    })
  })

  it('decodes a SelfSubjectReview status with user info', () => {
    const ssr = envelope(
      AUTHN,
      'SelfSubjectReview',
      msgField(2, msgField(1, lenField(1, 'alice'), lenField(3, 'devs'), lenField(3, 'ops')))
    )
    expect(decodeKubeProtobuf(ssr).status).toEqual({
      userInfo: { username: 'alice', groups: ['devs', 'ops'] },
    })
  })

  it('answers fields it does not know with 415: authorizationOptions, user extra', () => {
    const withOptions = accessReview(msgField(3, lenField(1, 'Allow')))
    const e = apiError(() => decodeKubeProtobuf(withOptions))
    expect(e.code).toBe(415)
    const extra = envelope(
      AUTHN,
      'SelfSubjectReview',
      msgField(2, msgField(1, msgField(4, lenField(1, 'k'), msgField(2, lenField(1, 'v')))))
    )
    expect(apiError(() => decodeKubeProtobuf(extra)).code).toBe(415)
  })

  it('knows only the v1 reviews', () => {
    const beta = envelope('authentication.k8s.io/v1beta1', 'SelfSubjectReview', new Uint8Array())
    expect(apiError(() => decodeKubeProtobuf(beta)).code).toBe(415)
    const other = envelope(AUTHZ, 'SubjectAccessReview', new Uint8Array())
    expect(apiError(() => decodeKubeProtobuf(other)).code).toBe(415)
  })
})
