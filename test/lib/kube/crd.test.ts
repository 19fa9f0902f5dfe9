import { describe, expect, it } from 'vitest'
import {
  compareKubeVersions,
  isKubeVersion,
  resourcesFromCrd,
  sortByKubeVersionPriority,
  validateCrd,
} from '../../../lib/kube/crd.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
  },
}

function widgetCrd(overrides: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.group3.test' },
    spec: {
      group: 'group3.test',
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        shortNames: ['wd'],
        categories: ['all'],
      },
      versions: [
        { name: 'v1alpha1', served: true, storage: false, schema },
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
          },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        },
        { name: 'v2', served: false, storage: false, schema },
      ],
      ...overrides,
    },
  }
}

describe('kube version priority', () => {
  it('orders GA > beta > alpha, then by major and minor', () => {
    const sorted = sortByKubeVersionPriority([
      'v1alpha1',
      'v11alpha2',
      'foo10',
      'v1',
      'v10beta3',
      'v2',
      'foo1',
      'v12alpha1',
      'v3beta1',
      'v11beta2',
    ])
    expect(sorted).toEqual([
      'v2',
      'v1',
      'v11beta2',
      'v10beta3',
      'v3beta1',
      'v12alpha1',
      'v11alpha2',
      'v1alpha1',
      'foo1',
      'foo10',
    ])
  })

  it('compares with kube sign convention (positive = a preferred)', () => {
    expect(compareKubeVersions('v2', 'v1')).toBeGreaterThan(0)
    expect(compareKubeVersions('v1beta2', 'v1')).toBeLessThan(0)
    expect(compareKubeVersions('v1', 'v1')).toBe(0)
    expect(compareKubeVersions('v1alpha1', 'zzz')).toBeGreaterThan(0)
    expect(isKubeVersion('v1beta1')).toBe(true)
    expect(isKubeVersion('v0')).toBe(false)
  })
})

describe('resourcesFromCrd', () => {
  it('serves the served versions, preferred first, with storage version and subresources', () => {
    const info = resourcesFromCrd(widgetCrd())
    expect(info).toBeDefined()
    expect(info?.versions).toEqual(['v1beta1', 'v1alpha1'])
    expect(info?.storageVersion).toBe('v1beta1')
    expect(info?.resource).toBe('widgets')
    expect(info?.kind).toBe('Widget')
    expect(info?.listKind).toBe('WidgetList')
    expect(info?.namespaced).toBe(true)
    expect(info?.shortNames).toEqual(['wd'])
    expect(info?.categories).toEqual(['all'])
    expect(info?.source).toBe('crd')
    expect(info?.verbs).toContain('deletecollection')
    expect(info?.subresources.status).toBe(true)
    expect(info?.subresources.scale?.specReplicasPath).toBe('.spec.size')
    expect(info?.printerColumns?.v1beta1?.[0]?.name).toBe('Size')
    expect(Object.keys(info?.schema ?? {}).sort()).toEqual(['v1alpha1', 'v1beta1'])
  })

  it('defaults singular and listKind, and is cluster-scoped for scope Cluster', () => {
    const crd = widgetCrd({ scope: 'Cluster', names: { plural: 'widgets', kind: 'Widget' } })
    const info = resourcesFromCrd(crd)
    expect(info?.singular).toBe('widget')
    expect(info?.listKind).toBe('WidgetList')
    expect(info?.namespaced).toBe(false)
    expect(info?.shortNames).toEqual([])
  })

  it('returns undefined for an invalid CRD', () => {
    expect(resourcesFromCrd(widgetCrd({ scope: 'Galaxy' }))).toBeUndefined()
  })
})

describe('validateCrd', () => {
  it('accepts a valid CRD', () => {
    expect(validateCrd(widgetCrd())).toEqual([])
  })

  it('requires name = plural.group', () => {
    const crd = widgetCrd()
    crd.metadata.name = 'widgets.other.test'
    const causes = validateCrd(crd)
    expect(causes).toHaveLength(1)
    expect(causes[0]?.field).toBe('metadata.name')
    expect(causes[0]?.message).toContain('must be spec.names.plural+"."+spec.group')
  })

  it('requires exactly one storage version and a served one', () => {
    const versions = [
      { name: 'v1', served: false, storage: true, schema },
      { name: 'v2', served: false, storage: true, schema },
    ]
    const causes = validateCrd(widgetCrd({ versions }))
    const messages = causes.map((c) => c.message).join('\n')
    expect(messages).toContain('must have exactly one version marked as storage version')
    expect(messages).toContain('must have at least one version marked as served')
  })

  it('reports scope, group, names, duplicate versions and missing schema', () => {
    const crd = widgetCrd({
      group: 'nodot',
      scope: 'Galaxy',
      names: { plural: 'Widgets', kind: '' },
      versions: [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v1', served: true, storage: false },
      ],
    })
    crd.metadata.name = 'Widgets.nodot'
    const byField = new Map(validateCrd(crd).map((c) => [c.field, c]))
    expect(byField.get('spec.scope')?.reason).toBe('FieldValueNotSupported')
    expect(byField.get('spec.group')?.message).toContain('at least one dot')
    expect(byField.get('spec.names.plural')?.reason).toBe('FieldValueInvalid')
    expect(byField.get('spec.names.kind')?.reason).toBe('FieldValueRequired')
    expect(byField.get('spec.versions[1].name')?.reason).toBe('FieldValueDuplicate')
    expect(byField.get('spec.versions[1].schema.openAPIV3Schema')?.reason).toBe(
      'FieldValueRequired'
    )
  })

  it('reports missing spec and empty versions', () => {
    const bare: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'x' },
    }
    expect(validateCrd(bare)[0]?.field).toBe('spec')
    expect(validateCrd(widgetCrd({ versions: [] })).some((c) => c.field === 'spec.versions')).toBe(
      true
    )
  })

  it('checks printer column types and scale paths', () => {
    const versions = [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema,
        additionalPrinterColumns: [{ name: 'X', type: 'float', jsonPath: '.x' }],
        subresources: { scale: { specReplicasPath: '.status.n', statusReplicasPath: '.status.n' } },
      },
    ]
    const fields = validateCrd(widgetCrd({ versions })).map((c) => c.field)
    expect(fields).toContain('spec.versions[0].additionalPrinterColumns[0].type')
    expect(fields).toContain('spec.versions[0].subresources.scale.specReplicasPath')
  })
})
