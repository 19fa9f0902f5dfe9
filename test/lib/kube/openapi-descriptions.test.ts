/**
 * Every kind edgeplane defines with zod (edge.kcp.io, tenancy.kcp.io, apis.kcp.io,
 * auth.edgeplane.io, tenancy.edgeplane.io: what lib/apis/by-kind.ts finds) is served in
 * `/openapi/v3` with a description on the kind, its list kind and every field at every depth, and
 * ObjectMeta and ListMeta with theirs, so `kubectl explain` never prints `<empty>`. A field added
 * without `.describe()` fails here, naming its path.
 */
import { describe, expect, it } from 'vitest'
import { zodSchemaFor } from '../../../lib/apis/by-kind.ts'
import { GRANT_RESOURCES } from '../../../lib/apis/grants.ts'
import { TOKEN_INFO } from '../../../lib/apis/tokens.ts'
import { buildOpenApiGroupVersion } from '../../../lib/kube/openapi.ts'
import { LIST_META_DOC, OBJECT_META_DOC } from '../../../lib/kube/openapi-object-meta.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { JsonObject, JsonValue } from '../../../lib/kube/types.ts'
import { OBJECT_META } from '../../../lib/kube/validate-builtin-dsl.ts'

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1'

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The paths below `schema` of fields without a description: each property at every depth, through
 * array items, map values and anyOf/oneOf/allOf branches (whose own nodes need none: kubectl
 * shows the field's). `own` says whether `schema` itself needs one.
 */
function undescribed(schema: JsonValue | undefined, path: string, own = true): string[] {
  if (!isObject(schema)) return []
  const out: string[] = []
  if (own && typeof schema.description !== 'string') out.push(path)
  if (own && typeof schema.description === 'string' && schema.description.trim() === '')
    out.push(`${path} (blank)`)
  const props = isObject(schema.properties) ? schema.properties : {}
  for (const [name, field] of Object.entries(props))
    out.push(...undescribed(field, `${path}.${name}`))
  out.push(...undescribed(schema.items, `${path}[]`, false))
  if (isObject(schema.additionalProperties))
    out.push(...undescribed(schema.additionalProperties, `${path}{}`, false))
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key]
    if (Array.isArray(branches))
      branches.forEach((b, i) => {
        out.push(...undescribed(b, `${path}<${key}${i}>`, false))
      })
  }
  return out
}

/** Root's registry: it serves every kind, Tokens and the tenancy kinds included. */
const registry = createRegistry([], [TOKEN_INFO, ...GRANT_RESOURCES])

/** The served zod kinds, by group-version, with their component schemas. */
function servedZodKinds() {
  const out: { group: string; version: string; kind: string; listKind: string; doc: JsonObject }[] =
    []
  for (const g of registry.groups()) {
    for (const version of g.versions) {
      for (const info of registry.resources(g.name, version)) {
        if (!zodSchemaFor(info.group, info.kind)) continue
        const doc = buildOpenApiGroupVersion(registry, g.name, version)
        if (!doc) throw new Error(`${g.name}/${version} is not served`)
        out.push({ group: g.name, version, kind: info.kind, listKind: info.listKind, doc })
      }
    }
  }
  return out
}

const schemasOf = (doc: JsonObject) =>
  (doc.components as { schemas: Record<string, JsonObject> }).schemas

/** The component schema serving `kind` (by its x-kubernetes-group-version-kind). */
function componentOf(doc: JsonObject, group: string, kind: string): JsonObject | undefined {
  return Object.values(schemasOf(doc)).find((s) => {
    const gvk = s['x-kubernetes-group-version-kind']
    return (
      Array.isArray(gvk) && gvk.some((x) => isObject(x) && x.group === group && x.kind === kind)
    )
  })
}

describe('the undescribed-field walk', () => {
  it('finds a field without a description at any depth, in items, maps and branches', () => {
    const schema: JsonObject = {
      description: 'a kind',
      type: 'object',
      properties: {
        spec: {
          description: 'the spec',
          type: 'object',
          properties: {
            named: { type: 'string', description: 'has words' },
            bare: { type: 'string' },
            list: {
              type: 'array',
              description: 'a list',
              items: { type: 'object', properties: { inner: { type: 'string' } } },
            },
            map: {
              type: 'object',
              description: 'a map',
              additionalProperties: { type: 'object', properties: { deep: { type: 'string' } } },
            },
            blank: { type: 'string', description: ' ' },
          },
        },
      },
    }
    expect(undescribed(schema, 'Kind')).toEqual([
      'Kind.spec.bare',
      'Kind.spec.list[].inner',
      'Kind.spec.map{}.deep',
      'Kind.spec.blank (blank)',
    ])
  })
})

describe('the served edgeplane schemas', () => {
  const kinds = servedZodKinds()

  it('cover every group edgeplane defines with zod', () => {
    const groups = new Set(kinds.map((k) => k.group))
    expect([...groups].sort()).toEqual([
      'apis.kcp.io',
      'auth.edgeplane.io',
      'edge.kcp.io',
      'tenancy.edgeplane.io',
      'tenancy.kcp.io',
    ])
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['EdgePlacement', 'Customizer', 'Summarizer', 'Workspace', 'Token'])
    )
  })

  it('describe every kind, list kind and field', () => {
    const missing: string[] = []
    for (const k of kinds) {
      const schema = componentOf(k.doc, k.group, k.kind)
      const list = componentOf(k.doc, k.group, k.listKind)
      if (!schema || !list) throw new Error(`${k.group} ${k.kind} has no component schema`)
      missing.push(...undescribed(schema, `${k.group} ${k.kind}`))
      missing.push(...undescribed(list, `${k.group} ${k.listKind}`))
    }
    expect(missing).toEqual([])
  })

  it('serve ObjectMeta and ListMeta with every field described', () => {
    for (const k of kinds) {
      const schemas = schemasOf(k.doc)
      expect(schemas[`${META}.ObjectMeta`]).toBe(OBJECT_META_DOC)
      expect(schemas[`${META}.ListMeta`]).toBe(LIST_META_DOC)
    }
    expect(undescribed(OBJECT_META_DOC, 'ObjectMeta')).toEqual([])
    expect(undescribed(LIST_META_DOC, 'ListMeta')).toEqual([])
  })
})

describe('ObjectMeta as served', () => {
  it('has exactly the fields and types validation checks, plus words', () => {
    const strip = (v: JsonValue): JsonValue => {
      if (Array.isArray(v)) return v.map(strip)
      if (!isObject(v)) return v
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'description')
          .map(([k, x]) => [k, strip(x)])
      )
    }
    expect(strip(OBJECT_META_DOC)).toEqual(OBJECT_META)
  })

  it('is what a built-in kind refers to as well', () => {
    const doc = buildOpenApiGroupVersion(registry, 'apps', 'v1')
    expect(doc && schemasOf(doc)[`${META}.ObjectMeta`]).toBe(OBJECT_META_DOC)
  })
})
