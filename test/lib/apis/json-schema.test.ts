import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openApiSchemaFor, zodSchemaFor } from '../../../lib/apis/by-kind.ts'
import { openApiSchemaFromZod } from '../../../lib/apis/json-schema.ts'

describe('openApiSchemaFromZod', () => {
  it('maps zod types to kube structural schemas', () => {
    const schema = openApiSchemaFromZod(
      z.object({
        name: z.string(),
        count: z.int32().optional(),
        big: z.number().int().optional(),
        quantity: z.union([z.string(), z.number()]).optional(),
        free: z.unknown().optional(),
        open: z.looseObject({ a: z.string().optional() }).optional(),
        map: z.record(z.string(), z.string()).optional(),
        mode: z.enum(['a', 'b']).optional(),
      })
    )
    expect(schema.$schema).toBeUndefined()
    expect(schema.required).toEqual(['name'])
    const p = schema.properties as Record<string, Record<string, unknown>>
    expect(p.count).toEqual({ type: 'integer', format: 'int32' })
    expect(p.big).toEqual({ type: 'integer', format: 'int64' })
    expect(p.quantity).toEqual({ 'x-kubernetes-int-or-string': true })
    expect(p.free).toEqual({ 'x-kubernetes-preserve-unknown-fields': true })
    expect(p.open?.['x-kubernetes-preserve-unknown-fields']).toBe(true)
    expect(p.open?.additionalProperties).toBeUndefined()
    expect(p.map).toEqual({ type: 'object', additionalProperties: { type: 'string' } })
    expect(p.mode).toEqual({ type: 'string', enum: ['a', 'b'] })
  })
})

describe('by-kind lookup', () => {
  it('finds the zod and OpenAPI schemas of edge and kcp kinds only', () => {
    expect(zodSchemaFor('edge.kcp.io', 'EdgePlacement')).toBeDefined()
    expect(zodSchemaFor('tenancy.kcp.io', 'Workspace')).toBeDefined()
    expect(zodSchemaFor('apis.kcp.io', 'APIBinding')).toBeDefined()
    expect(zodSchemaFor('edge.kcp.io', 'toString')).toBeUndefined()
    expect(zodSchemaFor('apps', 'Deployment')).toBeUndefined()
    const ep = openApiSchemaFor('edge.kcp.io', 'EdgePlacement')
    expect(ep).toBe(openApiSchemaFor('edge.kcp.io', 'EdgePlacement'))
    const spec = (
      ep?.properties as Record<string, { properties: Record<string, unknown> }> | undefined
    )?.spec
    expect(Object.keys(spec?.properties ?? {}).sort()).toEqual([
      'locationSelectors',
      'namespaceSelector',
      'nonNamespacedObjects',
      'upsync',
    ])
    expect(openApiSchemaFor('', 'ConfigMap')).toBeUndefined()
  })
})
