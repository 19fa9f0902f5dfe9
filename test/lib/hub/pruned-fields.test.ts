/**
 * Ownership of pruned fields (lib/hub/pruned-fields.ts): after a field is dropped, no manager
 * owns it or anything below it (keyed list items included); other ownership is untouched and an
 * entry left owning nothing disappears.
 */
import { describe, expect, it } from 'vitest'
import { forgetFields, forgetPrunedFields } from '../../../lib/hub/pruned-fields.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const entry = (manager: string, fieldsV1: Record<string, unknown>) => ({
  manager,
  operation: 'Update' as const,
  apiVersion: 'apps/v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1' as const,
  fieldsV1,
})

const deployment = (container: Record<string, unknown>, bogus?: unknown): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'd',
      managedFields: [
        entry('a', {
          'f:spec': {
            'f:replicas': {},
            'f:bogus': { '.': {}, 'f:x': {} },
            'f:template': {
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:image': {}, 'f:extra': {} },
                },
              },
            },
          },
        }),
        entry('b', { 'f:spec': { 'f:bogus': { 'f:x': {} } } }),
      ],
    },
    spec: {
      replicas: 1,
      ...(bogus === undefined ? {} : { bogus }),
      template: { spec: { containers: [container] } },
    },
  }) as KubeObject

describe('forgetPrunedFields', () => {
  it('removes ownership of the pruned fields and below, keeping the rest', () => {
    const before = deployment({ name: 'c', image: 'i', extra: 1 }, { x: 1 })
    const pruned = { ...before, spec: deployment({ name: 'c', image: 'i' }).spec }
    const out = forgetPrunedFields(before, pruned)
    expect(out.metadata.managedFields?.map((e) => e.manager)).toEqual(['a'])
    expect(out.metadata.managedFields?.[0]?.fieldsV1).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:template': {
          'f:spec': {
            'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
          },
        },
      },
    })
    expect(out.spec).toBe(pruned.spec)
  })

  it('changes nothing when nothing was pruned or nobody owns anything', () => {
    const obj = deployment({ name: 'c', image: 'i' })
    expect(forgetPrunedFields(obj, obj)).toBe(obj)
    const bare = { ...obj, metadata: { name: 'd' } }
    expect(forgetFields(bare, deployment({ name: 'c' }, 1), bare)).toBe(bare)
  })
})
