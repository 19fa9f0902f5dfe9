/**
 * Tests for the merge-key table of built-in kinds: where the pod spec is embedded, Service ports,
 * metadata lists on every kind, and which groups count as built in.
 */
import { describe, expect, it } from 'vitest'
import {
  GENERIC_OBJECT,
  isBuiltinGroup,
  schemaForKind,
  schemaForObject,
} from '../../../lib/patch/builtin-schemas.ts'
import { fieldSchema, type NodeSchema } from '../../../lib/patch/patch-schema.ts'

const at = (node: NodeSchema | undefined, ...path: string[]) =>
  path.reduce<NodeSchema | undefined>((n, key) => fieldSchema(n, key), node)

describe('builtin schemas', () => {
  it.each([
    ['apps', 'Deployment', ['spec', 'template', 'spec', 'containers']],
    ['apps', 'StatefulSet', ['spec', 'template', 'spec', 'initContainers']],
    ['batch', 'CronJob', ['spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers']],
    ['', 'PodTemplate', ['template', 'spec', 'containers']],
    ['', 'Pod', ['spec', 'ephemeralContainers']],
    ['', 'Pod', ['spec', 'volumes']],
  ])('%s/%s merges %j by name', (group, kind, path) => {
    expect(at(schemaForKind(group, kind), ...path)?.list?.mergeKey).toBe('name')
  })

  it('keys container env, ports and mounts, and Service ports', () => {
    const container = schemaForKind('', 'Pod').fields?.spec?.fields?.containers?.list?.items
    expect(at(container, 'env')?.list?.mergeKey).toBe('name')
    expect(at(container, 'volumeMounts')?.list?.mergeKey).toBe('mountPath')
    expect(at(container, 'ports')?.list).toMatchObject({
      mergeKey: 'containerPort',
      keys: ['containerPort', 'protocol'],
    })
    expect(at(container, 'envFrom')).toBeUndefined()
    expect(at(schemaForKind('', 'Service'), 'spec', 'ports')?.list?.mergeKey).toBe('port')
    expect(at(schemaForKind('', 'Pod'), 'spec', 'tolerations')).toBeUndefined()
  })

  it('gives every kind the metadata lists', () => {
    expect(schemaForKind('example.com', 'Widget')).toBe(GENERIC_OBJECT)
    expect(at(GENERIC_OBJECT, 'metadata', 'ownerReferences')?.list?.mergeKey).toBe('uid')
    expect(at(GENERIC_OBJECT, 'metadata', 'finalizers')?.list).toEqual({})
    expect(at(schemaForKind('apps', 'Deployment'), 'status', 'conditions')?.list?.mergeKey).toBe(
      'type'
    )
  })

  it('reads the group from apiVersion', () => {
    expect(schemaForObject({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBe(
      schemaForKind('apps', 'Deployment')
    )
    expect(schemaForObject({ apiVersion: 'v1', kind: 'Pod' })).toBe(schemaForKind('', 'Pod'))
  })

  it('knows the built-in groups', () => {
    expect(['', 'apps', 'batch', 'rbac.authorization.k8s.io'].every(isBuiltinGroup)).toBe(true)
    expect(['example.com', 'tenancy.kcp.io', 'control.kubestellar.io'].some(isBuiltinGroup)).toBe(
      false
    )
  })
})
