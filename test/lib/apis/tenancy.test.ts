import { describe, expect, it } from 'vitest'
import { APIBindingSchema, APIExportSchema, WorkspaceSchema } from '../../../lib/apis/tenancy.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { validateObject } from '../../../lib/kube/validate.ts'

const registry = createRegistry([])
const check = (group: string, obj: KubeObject) => {
  const info = registry.byKind(group, obj.kind)
  if (!info) throw new Error(obj.kind)
  return validateObject(info, 'v1alpha1', obj, { strict: true })
}

const mailbox: KubeObject = {
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: {
    name: '1t82bk54r6gjnzsp-mb-1a045336-8178-4026-8a56-5cd5609c0ec1',
    annotations: { 'edge.kcp.io/sync-target-name': 'florin' },
  },
  spec: {},
}

const bindEdge: KubeObject = {
  apiVersion: 'apis.kcp.io/v1alpha1',
  kind: 'APIBinding',
  metadata: { name: 'bind-edge' },
  spec: { reference: { export: { path: 'root:espw', name: 'edge.kcp.io' } } },
}

describe('tenancy.kcp.io Workspace', () => {
  it('accepts the mailbox workspace and typical kcp fields', () => {
    expect(check('tenancy.kcp.io', mailbox).causes).toEqual([])
    const ready = {
      ...mailbox,
      spec: {
        type: { name: 'universal', path: 'root' },
        cluster: 'abc123',
        location: { selector: { matchLabels: { a: 'b' } } },
      },
      status: {
        phase: 'Ready',
        URL: 'https://hub/clusters/root:espw:x',
        initializers: [],
        futureField: 1,
      },
    }
    expect(check('tenancy.kcp.io', ready)).toMatchObject({
      causes: [],
      warnings: [],
      unknownFields: [],
      pruned: [],
    })
    const ws = WorkspaceSchema.parse(ready)
    expect(ws.spec?.cluster).toBe('abc123')
    expect(ws.status?.phase).toBe('Ready')
  })

  it('rejects a bad type reference, a workspace name with dots and unknown top-level fields', () => {
    const bad = {
      ...mailbox,
      metadata: { name: 'a.b' },
      spec: { type: { path: 'root' } },
      bogus: 1,
    }
    expect(check('tenancy.kcp.io', bad).causes.map((c) => c.field)).toEqual([
      'metadata.name',
      'spec.type.name',
      'bogus',
    ])
  })
})

describe('apis.kcp.io', () => {
  it('APIBinding: the example bindings are valid; export name is required', () => {
    expect(check('apis.kcp.io', bindEdge).causes).toEqual([])
    expect(APIBindingSchema.parse(bindEdge).spec?.reference.export?.path).toBe('root:espw')
    const broken = { ...bindEdge, spec: { reference: { export: { path: 'root:espw' } } } }
    expect(check('apis.kcp.io', broken).causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.reference.export.name', 'FieldValueRequired'],
    ])
  })

  it('APIExport is loose', () => {
    const exp: KubeObject = {
      apiVersion: 'apis.kcp.io/v1alpha1',
      kind: 'APIExport',
      metadata: { name: 'edge.kcp.io' },
      spec: {
        latestResourceSchemas: ['v0.5.edgeplacements.edge.kcp.io'],
        maximalPermissionPolicy: { local: {} },
      },
    }
    expect(check('apis.kcp.io', exp).causes).toEqual([])
    expect(
      APIExportSchema.safeParse({ ...exp, spec: { latestResourceSchemas: 'x' } }).success
    ).toBe(false)
  })
})
