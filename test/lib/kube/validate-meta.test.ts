import { describe, expect, it } from 'vitest'
import { createRegistry } from '../../../lib/kube/registry.ts'
import { validateObjectMeta } from '../../../lib/kube/validate-meta.ts'

const r = createRegistry([])
const cm = r.byResource('', 'configmaps')!
const ns = r.byResource('', 'namespaces')!
const svc = r.byResource('', 'services')!
const role = r.byResource('rbac.authorization.k8s.io', 'clusterroles')!
const ws = r.byResource('tenancy.kcp.io', 'workspaces')!

const fields = (causes: { field?: string }[]) => causes.map((c) => c.field)

describe('validateObjectMeta', () => {
  it('accepts a plain namespaced object', () => {
    expect(
      validateObjectMeta(cm, {
        name: 'httpd-htdocs',
        namespace: 'commonstuff',
        labels: { app: 'x' },
      })
    ).toEqual([])
  })

  it('requires name or generateName', () => {
    const causes = validateObjectMeta(cm, { namespace: 'x' })
    expect(causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ])
    expect(validateObjectMeta(cm, { generateName: 'cm-', namespace: 'x' })).toEqual([])
    expect(fields(validateObjectMeta(cm, { generateName: 'Bad_', namespace: 'x' }))).toEqual([
      'metadata.generateName',
    ])
  })

  it('uses the name rule of the kind', () => {
    expect(fields(validateObjectMeta(cm, { name: 'a.b', namespace: 'x' }))).toEqual([])
    expect(fields(validateObjectMeta(ns, { name: 'a.b' }))).toEqual(['metadata.name'])
    expect(fields(validateObjectMeta(svc, { name: '1svc', namespace: 'x' }))).toEqual([
      'metadata.name',
    ])
    expect(fields(validateObjectMeta(role, { name: 'system:controller:Foo' }))).toEqual([])
    expect(fields(validateObjectMeta(role, { name: 'a/b' }))).toEqual(['metadata.name'])
    expect(
      fields(
        validateObjectMeta(ws, { name: '1t82bk54r6gjnzsp-mb-1a045336-8178-4026-8a56-5cd5609c0ec1' })
      )
    ).toEqual([])
    const bad = validateObjectMeta(cm, { name: 'Bad', namespace: 'x' })[0]
    expect(bad?.reason).toBe('FieldValueInvalid')
    expect(bad?.message).toMatch(/^Invalid value: "Bad": a lowercase RFC 1123 subdomain/)
  })

  it('requires a namespace on namespaced kinds and forbids it on cluster-scoped ones', () => {
    expect(validateObjectMeta(cm, { name: 'x' })[0]).toMatchObject({
      field: 'metadata.namespace',
      reason: 'FieldValueRequired',
    })
    expect(validateObjectMeta(ns, { name: 'x', namespace: 'y' })[0]).toMatchObject({
      field: 'metadata.namespace',
      reason: 'FieldValueForbidden',
    })
    expect(fields(validateObjectMeta(cm, { name: 'x', namespace: 'Bad.NS' }))).toContain(
      'metadata.namespace'
    )
  })

  it('checks label keys and values, annotation keys and size', () => {
    const causes = validateObjectMeta(cm, {
      name: 'x',
      namespace: 'y',
      labels: { 'bad key': 'ok', good: 'bad value!' },
      annotations: { 'edge.kcp.io/expand-parameters': 'true', 'Bad Annotation': 'x' },
    })
    expect(fields(causes)).toEqual(['metadata.labels', 'metadata.labels', 'metadata.annotations'])
    expect(causes[0]?.message).toContain('"bad key"')
    expect(causes[1]?.message).toContain('"bad value!"')
    const big = validateObjectMeta(cm, {
      name: 'x',
      namespace: 'y',
      annotations: { a: 'x'.repeat(256 * 1024) },
    })
    expect(big).toEqual([
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: must have at most 262144 bytes',
        field: 'metadata.annotations',
      },
    ])
  })

  it('checks finalizers and owner references', () => {
    const causes = validateObjectMeta(cm, {
      name: 'x',
      namespace: 'y',
      finalizers: ['kubernetes', 'bad finalizer'],
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '', controller: true },
        { apiVersion: 'v1', kind: 'Pod', name: 'q', uid: 'u2', controller: true },
      ],
    })
    expect(fields(causes)).toEqual([
      'metadata.finalizers[1]',
      'metadata.ownerReferences[0].uid',
      'metadata.ownerReferences',
    ])
  })

  it('requires metadata itself', () => {
    expect(validateObjectMeta(cm, undefined)).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'metadata' },
    ])
  })
})
