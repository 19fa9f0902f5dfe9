/**
 * The hub's OpenAPI v3: the index (`/openapi/v3`: one `serverRelativeURL` with a content hash per
 * group-version, without any `/clusters/<space>` prefix — the caller adds it) and the document of
 * each group-version (`/openapi/v3/apis/<g>/<v>`, `/openapi/v3/api/v1`): the paths of its
 * resources (openapi-paths.ts) and a component schema per kind and list kind carrying
 * `x-kubernetes-group-version-kind`, so kubectl validates through the server, and descriptions
 * (a zod kind's own, lib/apis/; ObjectMeta's and ListMeta's, openapi-object-meta.ts; a list
 * kind's here), so `kubectl explain` says what each field is. Built documents are cached by
 * content.
 */

import { LIST_META_DOC, OBJECT_META_DOC } from './openapi-object-meta.ts'
import { resourcePaths } from './openapi-paths.ts'
import type { Registry } from './registry.ts'
import type { ResourceInfo } from './resource-info.ts'
import type { JsonObject, JsonValue } from './types.ts'
import { schemaFor } from './validate.ts'
import { isRecord } from './validate-util.ts'

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1'
const OBJECT_META_NAME = `${META}.ObjectMeta`
const LIST_META_NAME = `${META}.ListMeta`
const ref = (name: string) => `#/components/schemas/${name}`
const API_VERSION_WORDS = 'APIVersion defines the versioned schema of this object.'
const KIND_WORDS = 'Kind is a string value representing the REST resource.'

export type OpenApiIndex = { paths: Record<string, { serverRelativeURL: string }> }
type Built = { doc: JsonObject; hash: string }

/** `api/v1` or `apis/<group>/<version>`: the key of a group-version in the index. */
export function openApiPathKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`
}

/** A deterministic 64-bit content hash (hex) of a string: two 32-bit FNV-1a style lanes. */
export function contentHash(text: string): string {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995)
    h2 ^= h2 >>> 15
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
  return (hex(h1) + hex(h2)).toUpperCase()
}

/** Component-schema name prefix: `io.k8s.api.apps.v1` for Kubernetes groups, reversed group else. */
function schemaPrefix(group: string, version: string): string {
  if (group === '') return `io.k8s.api.core.${version}`
  if (group.endsWith('.k8s.io') || !group.includes('.')) {
    return `io.k8s.api.${group.split('.')[0]}.${version}`
  }
  return `${group.split('.').reverse().join('.')}.${version}`
}

function kindSchema(info: ResourceInfo, version: string): JsonObject {
  const source = schemaFor(info, version)
  const copy = source ? (structuredClone(source) as JsonObject) : { type: 'object' }
  const props = isRecord(copy.properties) ? (copy.properties as JsonObject) : {}
  copy.type = 'object'
  copy.properties = {
    ...props,
    apiVersion: { type: 'string', description: API_VERSION_WORDS },
    kind: { type: 'string', description: KIND_WORDS },
    metadata: {
      allOf: [{ $ref: ref(OBJECT_META_NAME) }],
      description: "Standard object's metadata.",
    },
  }
  if (Array.isArray(copy.required)) {
    const required = copy.required.filter(
      (r) => !['apiVersion', 'kind', 'metadata'].includes(String(r))
    )
    if (required.length > 0) copy.required = required
    else delete copy.required
  }
  copy['x-kubernetes-group-version-kind'] = [{ group: info.group, version, kind: info.kind }]
  return copy
}

function listSchema(info: ResourceInfo, version: string, itemRef: string): JsonObject {
  return {
    type: 'object',
    required: ['items'],
    description: `A list of ${info.kind} objects.`,
    properties: {
      apiVersion: { type: 'string', description: API_VERSION_WORDS },
      kind: { type: 'string', description: KIND_WORDS },
      metadata: { allOf: [{ $ref: ref(LIST_META_NAME) }], description: 'Standard list metadata.' },
      items: {
        type: 'array',
        items: { $ref: itemRef },
        description: `The ${info.kind} objects.`,
      },
    },
    'x-kubernetes-group-version-kind': [{ group: info.group, version, kind: info.listKind }],
  }
}

function buildDoc(registry: Registry, group: string, version: string): JsonObject | undefined {
  const infos = registry.resources(group, version)
  if (infos.length === 0) return undefined
  const prefix = schemaPrefix(group, version)
  const paths: Record<string, JsonValue> = {}
  const schemas: Record<string, JsonValue> = {
    [OBJECT_META_NAME]: OBJECT_META_DOC,
    [LIST_META_NAME]: LIST_META_DOC,
  }
  for (const info of [...infos].sort((a, b) => a.resource.localeCompare(b.resource))) {
    const name = `${prefix}.${info.kind}`
    const listName = `${prefix}.${info.listKind}`
    schemas[name] = kindSchema(info, version)
    schemas[listName] = listSchema(info, version, ref(name))
    Object.assign(
      paths,
      resourcePaths({ info, version, schemaRef: ref(name), listSchemaRef: ref(listName) })
    )
  }
  return {
    openapi: '3.0.0',
    info: { title: 'edgeplane', version: 'v1' },
    paths,
    components: { schemas },
  }
}

/**
 * Built documents, shared across registries: a group-version made only of built-in resources is
 * keyed by its path alone; one with CRD resources also by the JSON of those resources.
 */
const cache = new Map<string, Built>()
const CACHE_LIMIT = 256

function built(registry: Registry, group: string, version: string): Built | undefined {
  const infos = registry.resources(group, version)
  if (infos.length === 0) return undefined
  const path = openApiPathKey(group, version)
  const key = infos.every((i) => i.source === 'builtin')
    ? path
    : `${path}\u0000${JSON.stringify(infos)}`
  const hit = cache.get(key)
  if (hit) return hit
  const doc = buildDoc(registry, group, version)
  if (!doc) return undefined
  const entry = { doc, hash: contentHash(JSON.stringify(doc)) }
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
  cache.set(key, entry)
  return entry
}

/** The document of one group-version, or undefined when it is not served. Do not mutate it. */
export function buildOpenApiGroupVersion(
  registry: Registry,
  group: string,
  version: string
): JsonObject | undefined {
  return built(registry, group, version)?.doc
}

/** The hash the index advertises for a group-version document (for ETag/caching headers). */
export function openApiDocumentHash(
  registry: Registry,
  group: string,
  version: string
): string | undefined {
  return built(registry, group, version)?.hash
}

/** `/openapi/v3`: every served group-version with its `serverRelativeURL` (no space prefix). */
export function buildOpenApiIndex(registry: Registry): OpenApiIndex {
  const paths: OpenApiIndex['paths'] = {}
  for (const g of registry.groups()) {
    for (const version of g.versions) {
      const key = openApiPathKey(g.name, version)
      const entry = built(registry, g.name, version)
      if (entry) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${entry.hash}` }
    }
  }
  return { paths }
}
