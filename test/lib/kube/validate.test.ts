import { describe, expect, it } from 'vitest'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  pruneUnknownFields,
  schemaFor,
  strictDecodingMessage,
  validateObject,
} from '../../../lib/kube/validate.ts'

const gizmos: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.group1.test' },
  spec: {
    group: 'group1.test',
    scope: 'Namespaced',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer' },
                  mode: { type: 'string', enum: ['fast', 'slow'] },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
      {
        name: 'v1alpha1',
        served: true,
        storage: false,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
}
const registry = createRegistry([gizmos])
const info = (group: string, resource: string) => {
  const i = registry.byResource(group, resource)
  if (!i) throw new Error(`no ${group}/${resource}`)
  return i
}
const STRICT = { strict: true }
const WARN = { strict: false }

const configMap = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'httpd-htdocs', namespace: 'commonstuff' },
  data: { 'index.html': '<html/>' },
  ...extra,
})

const deployment = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'speciald',
    namespace: 'specialstuff',
    annotations: { 'edge.kcp.io/customizer': 'example-customizer' },
  },
  spec: {
    selector: { matchLabels: { app: 'special' } },
    template: {
      metadata: { labels: { app: 'special' } },
      spec: {
        containers: [
          {
            name: 'httpd',
            env: [{ name: 'EXAMPLE_VAR', value: 'example value' }],
            image: 'library/httpd:2.4',
            ports: [{ name: 'http', containerPort: 80, hostPort: 8082, protocol: 'TCP' }],
            volumeMounts: [
              { name: 'htdocs', readOnly: true, mountPath: '/usr/local/apache2/htdocs' },
            ],
          },
        ],
        volumes: [{ name: 'htdocs', configMap: { name: 'httpd-htdocs', optional: false } }],
      },
    },
    ...spec,
  },
})

describe('validateObject: built-in kinds', () => {
  it('accepts the example workload objects', () => {
    const cm = configMap()
    const valid = validateObject(info('', 'configmaps'), 'v1', cm, STRICT)
    expect(valid).toEqual({ causes: [], warnings: [], unknownFields: [], object: cm, pruned: [] })
    expect(valid.object).toBe(cm)
    expect(validateObject(info('apps', 'deployments'), 'v1', deployment(), STRICT).causes).toEqual(
      []
    )
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'commonstuff', labels: { common: 'si' } },
    }
    expect(validateObject(info('', 'namespaces'), 'v1', ns, STRICT).causes).toEqual([])
  })

  it('strict: rejects an unknown top-level field with its path', () => {
    const result = validateObject(info('', 'configmaps'), 'v1', configMap({ bogus: 'x' }), STRICT)
    expect(result.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'unknown field "bogus"', field: 'bogus' },
    ])
    expect(result.unknownFields).toEqual(['bogus'])
    expect(strictDecodingMessage(result.unknownFields)).toBe(
      'strict decoding error: unknown field "bogus"'
    )
  })

  it('warn: unknown fields become warnings, not causes', () => {
    const result = validateObject(info('', 'configmaps'), 'v1', configMap({ bogus: 'x' }), WARN)
    expect(result.causes).toEqual([])
    expect(result.warnings).toEqual(['unknown field "bogus"'])
  })

  it('strict: unknown fields inside spec, pod templates, containers and metadata', () => {
    const dep = deployment({ replicaz: 3 })
    const spec = dep.spec as {
      template: {
        spec: { containers: Record<string, unknown>[]; bogusPodField?: number }
        metadata: Record<string, unknown>
      }
    }
    spec.template.spec.bogusPodField = 1
    ;(spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolicyy = 'Always'
    spec.template.metadata.labelz = {}
    dep.metadata = { ...dep.metadata, nmae: 'x' } as KubeObject['metadata']
    const { unknownFields } = validateObject(info('apps', 'deployments'), 'v1', dep, STRICT)
    expect(unknownFields.sort()).toEqual(
      [
        'metadata.nmae',
        'spec.replicaz',
        'spec.template.metadata.labelz',
        'spec.template.spec.bogusPodField',
        'spec.template.spec.containers[0].imagePullPolicyy',
      ].sort()
    )
  })

  it('type errors in built-in fields', () => {
    const dep = deployment({ replicas: '3' })
    const causes = validateObject(info('apps', 'deployments'), 'v1', dep, STRICT).causes
    expect(causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        field: 'spec.replicas',
      },
    ])
  })

  it('known spec fields of common kinds are accepted', () => {
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'x' },
      spec: {
        type: 'NodePort',
        selector: { app: 'web' },
        ports: [{ port: 80, targetPort: 'http', nodePort: 30080 }],
        sessionAffinity: 'None',
      },
    }
    expect(validateObject(info('', 'services'), 'v1', svc, STRICT).causes).toEqual([])
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'x' },
      type: 'Opaque',
      data: { a: 'YQ==' },
      stringData: { b: 'c' },
    }
    expect(validateObject(info('', 'secrets'), 'v1', secret, STRICT).causes).toEqual([])
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'x' },
      spec: {
        backoffLimit: 2,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [
              { name: 'c', image: 'busybox', resources: { limits: { cpu: 0.5, memory: '64Mi' } } },
            ],
          },
        },
      },
    }
    expect(validateObject(info('batch', 'jobs'), 'v1', job, STRICT).causes).toEqual([])
  })

  it('kinds described only at the top level accept anything below', () => {
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:edge' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], whatever: 1 }],
    }
    expect(
      validateObject(info('rbac.authorization.k8s.io', 'clusterroles'), 'v1', role, STRICT).causes
    ).toEqual([])
    const bad = { ...role, rulez: [] }
    expect(
      validateObject(info('rbac.authorization.k8s.io', 'clusterroles'), 'v1', bad, STRICT)
        .unknownFields
    ).toEqual(['rulez'])
  })

  it('metadata and value rules are reported together', () => {
    const dep = deployment({ selector: { matchLabels: { app: 'other' } } })
    dep.metadata.name = 'Bad_Name'
    const fields = validateObject(info('apps', 'deployments'), 'v1', dep, STRICT).causes.map(
      (c) => c.field
    )
    expect(fields).toEqual(['metadata.name', 'spec.template.metadata.labels'])
  })
})

describe('validateObject: CRD kinds', () => {
  const gizmo = (
    spec: Record<string, unknown>,
    extra: Record<string, unknown> = {}
  ): KubeObject => ({
    apiVersion: 'group1.test/v1',
    kind: 'Gizmo',
    metadata: { name: 'g', namespace: 'x' },
    spec,
    ...extra,
  })

  it('accepts a valid object and preserves unknown fields where the schema says so', () => {
    const result = validateObject(
      info('group1.test', 'gizmos'),
      'v1',
      gizmo({ size: 2, mode: 'fast', extra: { any: 'thing' } }),
      STRICT
    )
    expect(result).toMatchObject({ causes: [], warnings: [], unknownFields: [], pruned: [] })
    expect(result.object.spec).toEqual({ size: 2, mode: 'fast', extra: { any: 'thing' } })
  })

  it('reports type, required and enum errors', () => {
    const causes = validateObject(
      info('group1.test', 'gizmos'),
      'v1',
      gizmo({ mode: 'medium' }),
      STRICT
    ).causes
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.size', 'FieldValueRequired'],
      ['spec.mode', 'FieldValueNotSupported'],
    ])
    const typed = validateObject(
      info('group1.test', 'gizmos'),
      'v1',
      gizmo({ size: 'big' }),
      STRICT
    ).causes
    expect(typed[0]?.reason).toBe('FieldValueTypeInvalid')
  })

  it('strict rejects, warn warns on fields not in the schema', () => {
    const obj = gizmo({ size: 1, bogus: true }, { status: { ready: true, phase: 'x' } })
    const strict = validateObject(info('group1.test', 'gizmos'), 'v1', obj, STRICT)
    expect(strict.causes.map((c) => c.message)).toEqual([
      'unknown field "spec.bogus"',
      'unknown field "status.phase"',
    ])
    const warn = validateObject(info('group1.test', 'gizmos'), 'v1', obj, WARN)
    expect(warn.causes).toEqual([])
    expect(warn.warnings).toEqual(['unknown field "spec.bogus"', 'unknown field "status.phase"'])
    for (const result of [strict, warn]) {
      expect(result.pruned).toEqual(['spec.bogus', 'status.phase'])
      expect(result.object.spec).toEqual({ size: 1 })
      expect(result.object.status).toEqual({ ready: true })
    }
    expect(obj.spec).toEqual({ size: 1, bogus: true })
  })

  it('prunes unknown fields the stored object carried without reporting them', () => {
    const obj = gizmo({ size: 1, old: 1, bogus: true })
    const carried = new Set(['spec.old'])
    const strict = validateObject(info('group1.test', 'gizmos'), 'v1', obj, { ...STRICT, carried })
    expect(strict.unknownFields).toEqual(['spec.bogus'])
    expect(strict.causes.map((c) => c.field)).toEqual(['spec.bogus'])
    const warn = validateObject(info('group1.test', 'gizmos'), 'v1', obj, { ...WARN, carried })
    expect(warn.warnings).toEqual(['unknown field "spec.bogus"'])
    expect(warn.pruned).toEqual(['spec.old', 'spec.bogus'])
    expect(warn.object.spec).toEqual({ size: 1 })
  })

  it('pruneUnknownFields drops what the schema does not know, in metadata too', () => {
    const obj = gizmo({ size: 1, old: 1 }, { metadata: { name: 'g', namespace: 'x', bogus: 1 } })
    const { object, pruned } = pruneUnknownFields(info('group1.test', 'gizmos'), 'v1', obj)
    expect(pruned).toEqual(['metadata.bogus', 'spec.old'])
    expect(object).toEqual(gizmo({ size: 1 }))
    const clean = gizmo({ size: 1 })
    expect(pruneUnknownFields(info('group1.test', 'gizmos'), 'v1', clean).object).toBe(clean)
  })

  it('checks against the schema of the requested version', () => {
    const obj = { ...gizmo({ anything: 'goes' }), apiVersion: 'group1.test/v1alpha1' }
    expect(validateObject(info('group1.test', 'gizmos'), 'v1alpha1', obj, STRICT).causes).toEqual(
      []
    )
    expect(schemaFor(info('group1.test', 'gizmos'), 'v9')).toBeUndefined()
  })
})

describe('validateObject: ill-typed built-in objects', () => {
  it('reports the type error without value-rule noise', () => {
    const dep = deployment()
    dep.spec = 'not an object'
    expect(
      validateObject(info('apps', 'deployments'), 'v1', dep, STRICT).causes.map((c) => [
        c.field,
        c.reason,
      ])
    ).toEqual([['spec', 'FieldValueTypeInvalid']])
  })
})
