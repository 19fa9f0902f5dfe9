/**
 * Tests for reading merge keys from an OpenAPI v3 schema: map lists (keys, key defaults), set
 * lists, atomic lists and maps, composition branches, metadata always merged as ObjectMeta, the
 * EdgePlacement's status as the hub derives it from its zod schema, and that server-side apply
 * with the derived schema lets two managers own two conditions of one list.
 */
import { describe, expect, it } from 'vitest'
import { openApiSchemaFor } from '../../../lib/apis/by-kind.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { OBJECT_META } from '../../../lib/patch/builtin-schemas.ts'
import { nodeSchemaFromOpenApi } from '../../../lib/patch/openapi-fields.ts'
import { serverSideApply } from '../../../lib/patch/server-side-apply.ts'

const T0 = '2026-01-01T00:00:00Z'

const crdSchema: JsonObject = {
  type: 'object',
  properties: {
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            properties: {
              port: { type: 'integer' },
              protocol: { type: 'string', default: 'TCP' },
              hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            },
          },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
        plain: { type: 'array', items: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
        broken: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } },
      },
    },
    status: {
      allOf: [
        {
          properties: {
            conditions: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['type'],
              items: { type: 'object' },
            },
          },
        },
      ],
    },
  },
}

describe('nodeSchemaFromOpenApi', () => {
  it('reads map, set and atomic markers, key defaults and composed properties', () => {
    expect(nodeSchemaFromOpenApi(crdSchema)).toEqual({
      fields: {
        metadata: OBJECT_META,
        spec: {
          fields: {
            ports: {
              list: {
                mergeKey: 'port',
                keys: ['port', 'protocol'],
                keyDefaults: { protocol: 'TCP' },
                items: { fields: { hosts: { list: {} } } },
              },
            },
            tags: { list: {} },
            selector: { atomic: true },
          },
        },
        status: { fields: { conditions: { list: { mergeKey: 'type', keys: ['type'] } } } },
      },
    })
  })

  it('keeps property names as plain members, never the prototype', () => {
    const tricky: JsonObject = JSON.parse(
      '{"properties":{"__proto__":{"type":"array","x-kubernetes-list-type":"set"}}}'
    )
    const got = nodeSchemaFromOpenApi(tricky)
    expect(Object.hasOwn(got.fields ?? {}, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(got.fields)).toBe(Object.prototype)
  })

  it('derives the EdgePlacement status: conditions keyed by type, the summary atomic', () => {
    const schema = openApiSchemaFor('edge.kcp.io', 'EdgePlacement')
    expect(schema).toBeDefined()
    const node = nodeSchemaFromOpenApi(schema ?? {})
    expect(node.fields?.status).toEqual({
      fields: {
        conditions: { list: { mergeKey: 'type', keys: ['type'] } },
        summary: { atomic: true },
      },
    })
  })
})

describe('server-side apply with a derived schema', () => {
  const schema = nodeSchemaFromOpenApi(openApiSchemaFor('edge.kcp.io', 'EdgePlacement') ?? {})
  const placement = (status: JsonObject): KubeObject => ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'ep' },
    status,
  })
  const cond = (type: string, status: string) => ({ type, status, reason: 'R', message: 'm' })
  const apply = (live: KubeObject, manager: string, status: JsonObject) =>
    serverSideApply({
      live,
      applied: placement(status),
      manager,
      force: false,
      now: T0,
      subresource: 'status',
      schema,
    })

  it('lets two managers each own one condition, and removes only the one a manager drops', () => {
    const live: KubeObject = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'ep', uid: 'u', resourceVersion: '1' },
    }
    const a = apply(live, 'a', { conditions: [cond('A', 'True')] })
    const b = apply(a, 'b', { conditions: [cond('B', 'False')], summary: { x: 1, y: [1] } })
    expect(b.status).toEqual({
      conditions: [cond('A', 'True'), cond('B', 'False')],
      summary: { x: 1, y: [1] },
    })
    // No conflict without force: the managers own different items; the summary is replaced whole.
    const b2 = apply(b, 'b', { summary: { x: 2 } })
    expect(b2.status).toEqual({ conditions: [cond('A', 'True')], summary: { x: 2 } })
    const owned = (b2.metadata.managedFields ?? []).map((m) => [m.manager, m.fieldsV1])
    expect(owned).toEqual([
      ['a', { 'f:status': { 'f:conditions': { 'k:{"type":"A"}': expect.any(Object) } } }],
      ['b', { 'f:status': { 'f:summary': {} } }],
    ])
  })
})
