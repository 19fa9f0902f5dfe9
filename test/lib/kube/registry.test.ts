import { describe, expect, it } from 'vitest'
import { BUILTIN_RESOURCES } from '../../../lib/kube/builtin-resources.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { JsonValue, KubeObject } from '../../../lib/kube/types.ts'

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }

/** A CRD of `group` with `names` (plural, kind and any other names field), serving `versions`. */
function crd(
  group: string,
  names: { plural: string; kind: string } & Record<string, JsonValue>,
  versions: string[]
): KubeObject {
  const { plural } = names
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names,
      versions: versions.map((name, i) => ({ name, served: true, storage: i === 0, schema })),
    },
  }
}

describe('built-in resources', () => {
  it('every built-in has kind, list kind, singular, verbs and a served version', () => {
    for (const info of BUILTIN_RESOURCES) {
      expect(info.kind, info.resource).toMatch(/^[A-Z][A-Za-z]+$/)
      expect(info.listKind).toBe(`${info.kind}List`)
      expect(info.singular).toBe(info.kind.toLowerCase())
      // Reviews (whoami, can-i) are create-only; everything else can be read.
      expect(info.verbs).toContain(info.kind.endsWith('Review') ? 'create' : 'get')
      expect(info.versions.length).toBeGreaterThan(0)
      expect(info.versions).toContain(info.storageVersion)
      expect(info.source).toBe('builtin')
    }
  })

  it('short names are unique in a space', () => {
    const seen = new Map<string, string>()
    for (const info of BUILTIN_RESOURCES) {
      for (const s of info.shortNames) {
        expect(seen.get(s), `${s} on ${info.resource} and ${seen.get(s)}`).toBeUndefined()
        seen.set(s, info.resource)
      }
    }
    for (const s of [
      'deploy',
      'cm',
      'svc',
      'ns',
      'sa',
      'po',
      'rs',
      'ds',
      'sts',
      'cj',
      'ing',
      'netpol',
      'pdb',
      'hpa',
      'pc',
      'crd',
      'ev',
      'ws',
      'epl',
      'sps',
      'escfg',
    ]) {
      expect(seen.has(s), s).toBe(true)
    }
  })

  it('group/resource pairs are unique', () => {
    const keys = BUILTIN_RESOURCES.map((i) => `${i.group}/${i.resource}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('category all, scopes and status subresources follow kube and the edge API', () => {
    const r = createRegistry([])
    const all = r
      .all()
      .filter((i) => i.categories.includes('all'))
      .map((i) => i.resource)
      .sort()
    expect(all).toEqual(
      [
        'cronjobs',
        'daemonsets',
        'deployments',
        'horizontalpodautoscalers',
        'jobs',
        'pods',
        'replicasets',
        'replicationcontrollers',
        'services',
        'statefulsets',
      ].sort()
    )
    expect(r.byResource('', 'namespaces')?.namespaced).toBe(false)
    expect(r.byResource('', 'namespaces')?.verbs).not.toContain('deletecollection')
    expect(r.byResource('tenancy.kcp.io', 'workspaces')).toMatchObject({
      namespaced: false,
      shortNames: ['ws'],
    })
    for (const res of [
      'synctargets',
      'locations',
      'edgeplacements',
      'singleplacementslices',
      'syncerconfigs',
    ]) {
      expect(r.byResource('edge.kcp.io', res)?.namespaced, res).toBe(false)
    }
    expect(r.byResource('edge.kcp.io', 'customizers')?.namespaced).toBe(true)
    for (const res of ['synctargets', 'locations', 'edgeplacements', 'syncerconfigs']) {
      expect(r.byResource('edge.kcp.io', res)?.subresources.status, res).toBe(true)
    }
    expect(r.byResource('edge.kcp.io', 'singleplacementslices')?.subresources.status).toBe(false)
    expect(r.byResource('apps', 'deployments')?.subresources.scale).toBeDefined()
  })
})

describe('createRegistry', () => {
  it('looks up by resource, by kind and by apiVersion', () => {
    const r = createRegistry([])
    expect(r.byResource('apps', 'deployments')?.kind).toBe('Deployment')
    expect(r.byKind('', 'ConfigMap')?.resource).toBe('configmaps')
    expect(r.infoForApiVersion('edge.kcp.io/v1alpha1', 'EdgePlacement')?.info.resource).toBe(
      'edgeplacements'
    )
    expect(r.infoForApiVersion('v1', 'Secret')).toMatchObject({ group: '', version: 'v1' })
    expect(r.infoForApiVersion('autoscaling/v1', 'HorizontalPodAutoscaler')?.version).toBe('v1')
    expect(r.infoForApiVersion('apps/v2', 'Deployment')).toBeUndefined()
    expect(r.infoForApiVersion('apps/v1', 'Nope')).toBeUndefined()
    expect(r.byResource('apps', 'nope')).toBeUndefined()
  })

  it('lists groups in discovery order with preferred versions', () => {
    const r = createRegistry([
      crd('group1.test', { plural: 'sprockets', kind: 'Sprocket' }, ['v1beta1', 'v1', 'v1alpha1']),
    ])
    const groups = r.groups()
    expect(groups[0]).toEqual({ name: '', versions: ['v1'], preferredVersion: 'v1' })
    expect(groups[1]?.name).toBe('apiregistration.k8s.io')
    expect(r.group('autoscaling')).toEqual({
      name: 'autoscaling',
      versions: ['v2', 'v1'],
      preferredVersion: 'v2',
    })
    const last = groups[groups.length - 1]
    expect(last).toEqual({
      name: 'group1.test',
      versions: ['v1', 'v1beta1', 'v1alpha1'],
      preferredVersion: 'v1',
    })
    expect(r.resources('group1.test', 'v1alpha1').map((i) => i.resource)).toEqual(['sprockets'])
    expect(r.resources('group1.test', 'v9')).toEqual([])
    expect(r.problems).toEqual([])
  })

  it('merges the versions of several CRDs in one group', () => {
    const r = createRegistry([
      crd('group1.test', { plural: 'sprockets', kind: 'Sprocket' }, ['v1alpha1']),
      crd('group1.test', { plural: 'flanges', kind: 'Flange' }, ['v1', 'v1alpha1']),
    ])
    expect(r.group('group1.test')?.versions).toEqual(['v1', 'v1alpha1'])
    expect(r.resources('group1.test', 'v1alpha1').map((i) => i.resource)).toEqual([
      'flanges',
      'sprockets',
    ])
    expect(r.resources('group1.test', 'v1').map((i) => i.resource)).toEqual(['flanges'])
  })

  it('does not let a CRD override a built-in resource or reuse a kind', () => {
    const r = createRegistry([
      crd('edge.kcp.io', { plural: 'edgeplacements', kind: 'EdgePlacement' }, ['v1alpha1']),
      crd('group1.test', { plural: 'cogs', kind: 'Cog' }, ['v1']),
      crd('group1.test', { plural: 'cogz', kind: 'Cog' }, ['v1']),
    ])
    expect(r.byResource('edge.kcp.io', 'edgeplacements')?.source).toBe('builtin')
    expect(r.byResource('group1.test', 'cogz')).toBeUndefined()
    expect(r.problems.map((p) => p.crd)).toEqual(['edgeplacements.edge.kcp.io', 'cogz.group1.test'])
    expect(r.problems[0]?.causes[0]?.field).toBe('spec.names.plural')
    expect(r.problems[1]?.causes[0]?.field).toBe('spec.names.kind')
  })

  it('drops short names already taken and reports them', () => {
    const r = createRegistry([
      crd('group1.test', { plural: 'gizmos', kind: 'Gizmo', shortNames: ['po', 'gz'] }, ['v1']),
    ])
    expect(r.byResource('group1.test', 'gizmos')?.shortNames).toEqual(['gz'])
    expect(r.problems[0]?.causes[0]?.reason).toBe('FieldValueDuplicate')
  })

  it('skips invalid CRDs with their causes', () => {
    const bad = crd('group1.test', { plural: 'bads', kind: 'Bad' }, ['v1'])
    bad.metadata.name = 'wrong'
    const r = createRegistry([bad])
    expect(r.byResource('group1.test', 'bads')).toBeUndefined()
    expect(r.group('group1.test')).toBeUndefined()
    expect(r.problems[0]?.causes[0]?.field).toBe('metadata.name')
  })
})
