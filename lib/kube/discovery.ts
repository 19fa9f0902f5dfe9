/**
 * Pure builders of the discovery documents kubectl and client-node read: `APIVersions` (/api),
 * `APIGroupList` (/apis), `APIGroup` (/apis/<g>), `APIResourceList` (/api/v1, /apis/<g>/<v>, with
 * `<plural>/status` and `<plural>/scale` entries), and aggregated discovery
 * (`apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`, for /api and /apis when the client asks for
 * it with `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`).
 */
import type { Registry } from './registry.ts'
import { formatApiVersion, type ResourceInfo, SUBRESOURCE_VERBS } from './resource-info.ts'

export const AGGREGATED_DISCOVERY_V2 = 'apidiscovery.k8s.io/v2'
export const AGGREGATED_DISCOVERY_V2BETA1 = 'apidiscovery.k8s.io/v2beta1'
/** Content-Type of an aggregated discovery response (v2). */
export const AGGREGATED_DISCOVERY_CONTENT_TYPE =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

export type GroupVersionForDiscovery = { groupVersion: string; version: string }
export type ApiGroupDoc = {
  kind?: 'APIGroup'
  apiVersion?: 'v1'
  name: string
  versions: GroupVersionForDiscovery[]
  preferredVersion: GroupVersionForDiscovery
}
export type ApiGroupListDoc = { kind: 'APIGroupList'; apiVersion: 'v1'; groups: ApiGroupDoc[] }
export type ApiVersionsDoc = {
  kind: 'APIVersions'
  versions: string[]
  serverAddressByClientCIDRs: { clientCIDR: string; serverAddress: string }[]
}
export type ApiResourceDoc = {
  name: string
  singularName: string
  namespaced: boolean
  group?: string
  version?: string
  kind: string
  verbs: string[]
  shortNames?: string[]
  categories?: string[]
}
export type ApiResourceListDoc = {
  kind: 'APIResourceList'
  apiVersion: 'v1'
  groupVersion: string
  resources: ApiResourceDoc[]
}

type Gvk = { group: string; version: string; kind: string }
export type ApiSubresourceDiscovery = { subresource: string; responseKind: Gvk; verbs: string[] }
export type ApiResourceDiscovery = {
  resource: string
  responseKind: Gvk
  scope: 'Namespaced' | 'Cluster'
  singularResource: string
  verbs: string[]
  shortNames?: string[]
  categories?: string[]
  subresources?: ApiSubresourceDiscovery[]
}
export type ApiVersionDiscovery = {
  version: string
  resources: ApiResourceDiscovery[]
  freshness: 'Current'
}
export type ApiGroupDiscovery = { metadata: { name?: string }; versions: ApiVersionDiscovery[] }
export type ApiGroupDiscoveryListDoc = {
  kind: 'APIGroupDiscoveryList'
  apiVersion: string
  metadata: Record<string, never>
  items: ApiGroupDiscovery[]
}

const SCALE_KIND: Gvk = { group: 'autoscaling', version: 'v1', kind: 'Scale' }

const byName = (a: ResourceInfo, b: ResourceInfo) => a.resource.localeCompare(b.resource)

/** `/api`: the legacy core group's versions. */
export function buildApiVersions(serverAddress?: string): ApiVersionsDoc {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs:
      serverAddress === undefined ? [] : [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  }
}

function groupDoc(name: string, versions: string[], preferred: string): ApiGroupDoc {
  const gv = (version: string) => ({ groupVersion: formatApiVersion(name, version), version })
  return { name, versions: versions.map(gv), preferredVersion: gv(preferred) }
}

/** `/apis`: every named group (not the core group), versions highest priority first. */
export function buildApiGroupList(registry: Registry): ApiGroupListDoc {
  const groups = registry
    .groups()
    .filter((g) => g.name !== '')
    .map((g) => groupDoc(g.name, g.versions, g.preferredVersion))
  return { kind: 'APIGroupList', apiVersion: 'v1', groups }
}

/** `/apis/<group>`, or undefined when the group is not served. */
export function buildApiGroup(registry: Registry, group: string): ApiGroupDoc | undefined {
  const g = registry.group(group)
  if (!g || group === '') return undefined
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g.name, g.versions, g.preferredVersion) }
}

function resourceEntries(info: ResourceInfo): ApiResourceDoc[] {
  const main: ApiResourceDoc = {
    name: info.resource,
    singularName: info.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: info.verbs,
  }
  if (info.shortNames.length > 0) main.shortNames = info.shortNames
  if (info.categories.length > 0) main.categories = info.categories
  const out = [main]
  const sub = { singularName: '', namespaced: info.namespaced, verbs: SUBRESOURCE_VERBS }
  if (info.subresources.status)
    out.push({ name: `${info.resource}/status`, kind: info.kind, ...sub })
  if (info.subresources.scale) {
    out.push({
      name: `${info.resource}/scale`,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      ...sub,
    })
  }
  return out
}

/** `/api/v1` or `/apis/<g>/<v>`, or undefined when that group/version is not served. */
export function buildApiResourceList(
  registry: Registry,
  group: string,
  version: string
): ApiResourceListDoc | undefined {
  const infos = registry.resources(group, version)
  if (infos.length === 0) return undefined
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: formatApiVersion(group, version),
    resources: [...infos].sort(byName).flatMap(resourceEntries),
  }
}

function resourceDiscovery(info: ResourceInfo, version: string): ApiResourceDiscovery {
  const responseKind = { group: info.group, version, kind: info.kind }
  const out: ApiResourceDiscovery = {
    resource: info.resource,
    responseKind,
    scope: info.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: info.singular,
    verbs: info.verbs,
  }
  if (info.shortNames.length > 0) out.shortNames = info.shortNames
  if (info.categories.length > 0) out.categories = info.categories
  const subresources: ApiSubresourceDiscovery[] = []
  if (info.subresources.status) {
    subresources.push({ subresource: 'status', responseKind, verbs: SUBRESOURCE_VERBS })
  }
  if (info.subresources.scale) {
    subresources.push({ subresource: 'scale', responseKind: SCALE_KIND, verbs: SUBRESOURCE_VERBS })
  }
  if (subresources.length > 0) out.subresources = subresources
  return out
}

/**
 * Aggregated discovery: for `/api` (which: 'legacy', the core group only) or `/apis` (which:
 * 'apis', every named group). Versions are listed highest priority first, as kube does.
 */
export function buildAggregatedDiscovery(
  registry: Registry,
  which: 'legacy' | 'apis',
  apiVersion: string = AGGREGATED_DISCOVERY_V2
): ApiGroupDiscoveryListDoc {
  const groups = registry.groups().filter((g) => (which === 'legacy') === (g.name === ''))
  const items = groups.map((g) => ({
    metadata: g.name === '' ? {} : { name: g.name },
    versions: g.versions.map((version) => ({
      version,
      resources: [...registry.resources(g.name, version)]
        .sort(byName)
        .map((info) => resourceDiscovery(info, version)),
      freshness: 'Current' as const,
    })),
  }))
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items }
}
