/**
 * What the hub knows about one resource type: its group, served versions (preferred first),
 * storage version, names (plural, singular, kind, list kind, short names, categories), scope,
 * verbs, subresources, and for CustomResourceDefinitions the printer columns and OpenAPI v3
 * schema of each version. Built-in types and CRD-defined types share this shape; the registry
 * (`registry.ts`) indexes them. Also small helpers to split and join `apiVersion` strings and a
 * constructor that fills the defaults every built-in type shares.
 */
import type { JsonObject } from './types.ts'

export type PrinterColumn = {
  name: string
  type: string
  jsonPath: string
  description?: string
  format?: string
  priority?: number
}

export type ScaleSubresource = {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

export type Subresources = { status: boolean; scale?: ScaleSubresource }

export type ResourceInfo = {
  /** '' for the core (legacy) group. */
  group: string
  /** Served versions, highest priority (preferred) first. */
  versions: string[]
  storageVersion: string
  /** Lowercase plural, e.g. `deployments`. */
  resource: string
  singular: string
  kind: string
  listKind: string
  namespaced: boolean
  shortNames: string[]
  categories: string[]
  verbs: string[]
  subresources: Subresources
  source: 'builtin' | 'crd'
  /** additionalPrinterColumns per version (CRDs only). */
  printerColumns?: Record<string, PrinterColumn[]>
  /** openAPIV3Schema per version (CRDs only; built-in schemas live with the validators). */
  schema?: Record<string, JsonObject>
}

/** The verbs of an ordinary read-write resource, in kube's discovery order. */
export const STANDARD_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
]

/** Verbs on the `/status` (and `/scale`) subresource. */
export const SUBRESOURCE_VERBS = ['get', 'patch', 'update']

/** `apps/v1` -> {group: 'apps', version: 'v1'}; `v1` -> {group: '', version: 'v1'}. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/')
  if (slash < 0) return { group: '', version: apiVersion }
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) }
}

/** Inverse of parseApiVersion. */
export function formatApiVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`
}

/** The preferred (first) served version. */
export function preferredVersion(info: ResourceInfo): string {
  return info.versions[0] ?? info.storageVersion
}

/** `deployments.apps`, or just `configmaps` for the core group. */
export function groupResourceName(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return info.group === '' ? info.resource : `${info.resource}.${info.group}`
}

export type BuiltinSpec = {
  group: string
  versions: string[]
  resource: string
  kind: string
  namespaced: boolean
  singular?: string
  shortNames?: string[]
  categories?: string[]
  verbs?: string[]
  status?: boolean
  scale?: boolean
}

const REPLICAS_SCALE: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.selector',
}

/** A built-in ResourceInfo: singular = lowercase kind, list kind = kind + List, all verbs. */
export function builtinResource(spec: BuiltinSpec): ResourceInfo {
  const subresources: Subresources = { status: spec.status ?? false }
  if (spec.scale) subresources.scale = REPLICAS_SCALE
  return {
    group: spec.group,
    versions: spec.versions,
    storageVersion: spec.versions[0] ?? 'v1',
    resource: spec.resource,
    singular: spec.singular ?? spec.kind.toLowerCase(),
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    verbs: spec.verbs ?? STANDARD_VERBS,
    subresources,
    source: 'builtin',
  }
}
