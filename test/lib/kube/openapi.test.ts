import { describe, expect, it } from 'vitest'
import {
  buildOpenApiGroupVersion,
  buildOpenApiIndex,
  contentHash,
  openApiDocumentHash,
  openApiPathKey,
} from '../../../lib/kube/openapi.ts'
import { groupVersionCamel } from '../../../lib/kube/openapi-paths.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'

const sprockets: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'sprockets.group1.test' },
  spec: {
    group: 'group1.test',
    scope: 'Namespaced',
    names: { plural: 'sprockets', kind: 'Sprocket' },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['spec'],
            properties: { spec: { type: 'object', properties: { teeth: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
}

const obj = (v: unknown) => v as JsonObject
type Op = {
  parameters: { name: string; in: string }[]
  'x-kubernetes-group-version-kind': unknown
  'x-kubernetes-action': string
  requestBody?: unknown
}
const paths = (doc: JsonObject | undefined) =>
  obj(doc?.paths) as unknown as Record<string, Record<string, Op>>
const schemas = (doc: JsonObject | undefined) =>
  obj(obj(doc?.components).schemas) as unknown as Record<string, JsonObject>

describe('openapi index', () => {
  const registry = createRegistry([sprockets])
  const index = buildOpenApiIndex(registry)

  it('lists every group-version with a hashed server-relative URL and no space prefix', () => {
    expect(index.paths['api/v1']?.serverRelativeURL).toMatch(
      /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{16}$/
    )
    expect(index.paths['apis/autoscaling/v1']).toBeDefined()
    expect(index.paths['apis/autoscaling/v2']).toBeDefined()
    expect(index.paths['apis/edge.kcp.io/v1alpha1']?.serverRelativeURL).toMatch(
      /^\/openapi\/v3\/apis\/edge\.kcp\.io\/v1alpha1\?hash=/
    )
    expect(index.paths['apis/group1.test/v1alpha1']).toBeDefined()
    expect(JSON.stringify(index)).not.toContain('/clusters/')
  })

  it('hashes deterministically, and the hash changes with the content', () => {
    const again = buildOpenApiIndex(createRegistry([sprockets]))
    expect(again).toEqual(index)
    const changed = structuredClone(sprockets)
    const version = (changed.spec as { versions: { schema: { openAPIV3Schema: JsonObject } }[] })
      .versions[0]
    if (version) version.schema.openAPIV3Schema.description = 'changed'
    const other = buildOpenApiIndex(createRegistry([changed]))
    expect(other.paths['apis/group1.test/v1alpha1']).not.toEqual(
      index.paths['apis/group1.test/v1alpha1']
    )
    expect(other.paths['api/v1']).toEqual(index.paths['api/v1'])
    expect(openApiDocumentHash(registry, '', 'v1')).toBe(
      index.paths['api/v1']?.serverRelativeURL.split('=')[1]
    )
    expect(contentHash('a')).not.toBe(contentHash('b'))
    expect(contentHash('abc')).toBe(contentHash('abc'))
  })

  it('path keys', () => {
    expect(openApiPathKey('', 'v1')).toBe('api/v1')
    expect(openApiPathKey('apps', 'v1')).toBe('apis/apps/v1')
    expect(groupVersionCamel('rbac.authorization.k8s.io', 'v1')).toBe('RbacAuthorizationV1')
    expect(groupVersionCamel('', 'v1')).toBe('CoreV1')
    expect(groupVersionCamel('edge.kcp.io', 'v1alpha1')).toBe('EdgeKcpIoV1alpha1')
  })
})

describe('openapi group-version documents', () => {
  const registry = createRegistry([sprockets])

  it('core v1: PATCH on configmaps carries the GVK and a fieldValidation query parameter', () => {
    const doc = buildOpenApiGroupVersion(registry, '', 'v1')
    expect(doc?.openapi).toBe('3.0.0')
    const item = paths(doc)['/api/v1/namespaces/{namespace}/configmaps/{name}']
    const patch = item?.patch
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
    })
    expect(patch?.['x-kubernetes-action']).toBe('patch')
    expect(patch?.parameters).toContainEqual({
      name: 'fieldValidation',
      in: 'query',
      schema: { type: 'string' },
    })
    expect(patch?.requestBody).toBeUndefined()
    const coll = paths(doc)['/api/v1/namespaces/{namespace}/configmaps']
    expect(coll?.post?.parameters.map((p) => p.name)).toContain('fieldValidation')
    expect(item?.put?.parameters.map((p) => p.name)).toContain('fieldValidation')
    expect(paths(doc)['/api/v1/configmaps']?.get?.['x-kubernetes-action']).toBe('list')
    expect(paths(doc)['/api/v1/namespaces/{name}']?.patch).toBeDefined()
    expect(paths(doc)['/api/v1/namespaces']?.delete).toBeUndefined()
    expect(paths(doc)['/api/v1/namespaces/{namespace}/pods/{name}/status']?.patch).toBeDefined()
  })

  it('has component schemas with GVK extensions and standard apiVersion/kind/metadata', () => {
    const doc = buildOpenApiGroupVersion(registry, 'apps', 'v1')
    const dep = schemas(doc)['io.k8s.api.apps.v1.Deployment']
    expect(dep?.['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ])
    const props = obj(dep?.properties)
    expect(obj(props.metadata).allOf).toEqual([
      { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
    ])
    expect(obj(obj(obj(props.spec).properties).replicas).type).toBe('integer')
    expect(
      schemas(doc)['io.k8s.api.apps.v1.DeploymentList']?.['x-kubernetes-group-version-kind']
    ).toEqual([{ group: 'apps', version: 'v1', kind: 'DeploymentList' }])
    expect(schemas(doc)['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined()
  })

  it('edge kinds: cluster-scoped paths and schemas derived from the zod definitions', () => {
    const doc = buildOpenApiGroupVersion(registry, 'edge.kcp.io', 'v1alpha1')
    const p = paths(doc)
    expect(
      p['/apis/edge.kcp.io/v1alpha1/edgeplacements/{name}']?.patch?.[
        'x-kubernetes-group-version-kind'
      ]
    ).toEqual({
      group: 'edge.kcp.io',
      version: 'v1alpha1',
      kind: 'EdgePlacement',
    })
    expect(
      p['/apis/edge.kcp.io/v1alpha1/namespaces/{namespace}/customizers/{name}']?.patch
    ).toBeDefined()
    expect(p['/apis/edge.kcp.io/v1alpha1/singleplacementslices/{name}/status']).toBeUndefined()
    const ep = schemas(doc)['io.kcp.edge.v1alpha1.EdgePlacement']
    const spec = obj(obj(ep?.properties).spec)
    const selectors = obj(obj(spec.properties).locationSelectors)
    expect(selectors.type).toBe('array')
    const expr = obj(obj(obj(obj(selectors.items).properties).matchExpressions).items)
    expect(obj(obj(expr.properties).operator).enum).toEqual([
      'In',
      'NotIn',
      'Exists',
      'DoesNotExist',
    ])
    expect(ep?.required).toBeUndefined()
    const loc = schemas(doc)['io.kcp.edge.v1alpha1.Location']
    expect(loc?.required).toEqual(['spec'])
  })

  it('CRD kinds use their openAPIV3Schema', () => {
    const doc = buildOpenApiGroupVersion(registry, 'group1.test', 'v1alpha1')
    const s = schemas(doc)['test.group1.v1alpha1.Sprocket']
    expect(s?.['x-kubernetes-group-version-kind']).toEqual([
      { group: 'group1.test', version: 'v1alpha1', kind: 'Sprocket' },
    ])
    expect(s?.required).toEqual(['spec'])
    expect(obj(obj(obj(obj(s?.properties).spec).properties).teeth).type).toBe('integer')
    expect(obj(obj(s?.properties).kind).type).toBe('string')
    expect(
      paths(doc)[
        '/apis/group1.test/v1alpha1/namespaces/{namespace}/sprockets/{name}'
      ]?.patch?.parameters.map((x) => x.name)
    ).toContain('fieldValidation')
  })

  it('every PATCH in every document has a GVK and fieldValidation', () => {
    for (const g of registry.groups()) {
      for (const v of g.versions) {
        const doc = buildOpenApiGroupVersion(registry, g.name, v)
        for (const [path, item] of Object.entries(paths(doc))) {
          if (!item.patch) continue
          expect(item.patch['x-kubernetes-group-version-kind'], path).toBeDefined()
          expect(
            item.patch.parameters.some((p) => p.name === 'fieldValidation'),
            path
          ).toBe(true)
        }
      }
    }
  })

  it('returns undefined for a group-version that is not served', () => {
    expect(buildOpenApiGroupVersion(registry, 'apps', 'v9')).toBeUndefined()
    expect(openApiDocumentHash(registry, 'nope.test', 'v1')).toBeUndefined()
  })
})
