/**
 * The resource registry of one space: the built-in resources plus the resources its valid
 * CustomResourceDefinitions define. Lookups by group+resource, by group+kind and by apiVersion+kind;
 * the API groups with their versions (highest priority first) and preferred version; the resources
 * served at a group/version. A CRD is not served when it is invalid, would take over a built-in
 * group/resource or another CRD's kind; short names already taken in the space are dropped. Each
 * such problem is reported in `problems`, so the CRD handler can surface it.
 */
import type { StatusCause } from '../errors.ts'
import { BUILTIN_GROUP_ORDER, BUILTIN_RESOURCES } from './builtin-resources.ts'
import { resourcesFromCrd, sortByKubeVersionPriority, validateCrd } from './crd.ts'
import { parseApiVersion, type ResourceInfo } from './resource-info.ts'
import type { KubeObject } from './types.ts'

export type ApiGroupInfo = { name: string; versions: string[]; preferredVersion: string }

/** Why a CRD is not (fully) served. */
export type CrdProblem = { crd: string; causes: StatusCause[] }

export type Registry = {
  /** Every served resource, built-ins first in discovery order, then CRDs by group. */
  all(): readonly ResourceInfo[]
  byResource(group: string, resource: string): ResourceInfo | undefined
  byKind(group: string, kind: string): ResourceInfo | undefined
  /** API groups in discovery order; the core group ('') comes first. */
  groups(): ApiGroupInfo[]
  group(name: string): ApiGroupInfo | undefined
  /** Resources served at this group/version; empty when the version is not served. */
  resources(group: string, version: string): ResourceInfo[]
  /** The resource for an object's apiVersion and kind, when that version is served. */
  infoForApiVersion(
    apiVersion: string,
    kind: string
  ): { info: ResourceInfo; group: string; version: string } | undefined
  problems: CrdProblem[]
}

const key = (a: string, b: string) => `${a}\u0000${b}`

function crdName(crd: KubeObject): string {
  return crd.metadata?.name ?? ''
}

function conflictCauses(
  info: ResourceInfo,
  byResource: Map<string, ResourceInfo>,
  byKind: Map<string, ResourceInfo>
): StatusCause[] {
  const causes: StatusCause[] = []
  const sameResource = byResource.get(key(info.group, info.resource))
  if (sameResource) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.names.plural',
      message: `"${info.resource}" is already served in group "${info.group}" by a ${sameResource.source === 'builtin' ? 'built-in' : 'another'} resource`,
    })
  }
  if (byKind.has(key(info.group, info.kind))) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.names.kind',
      message: `kind "${info.kind}" is already served in group "${info.group}"`,
    })
  }
  return causes
}

/**
 * Builds the registry of a space from its CRDs (in creation order: earlier CRDs win conflicts);
 * `extraBuiltins` are built-ins only this space serves (root's Tokens), taken before any CRD.
 */
export function createRegistry(
  crds: readonly KubeObject[],
  extraBuiltins: readonly ResourceInfo[] = []
): Registry {
  const byResource = new Map<string, ResourceInfo>()
  const byKind = new Map<string, ResourceInfo>()
  const shortNames = new Set<string>()
  const ordered: ResourceInfo[] = []
  const problems: CrdProblem[] = []
  const index = (info: ResourceInfo) => {
    byResource.set(key(info.group, info.resource), info)
    byKind.set(key(info.group, info.kind), info)
    for (const s of info.shortNames) shortNames.add(s)
  }
  for (const info of [...BUILTIN_RESOURCES, ...extraBuiltins]) {
    index(info)
    ordered.push(info)
  }

  const fromCrds: ResourceInfo[] = []
  for (const crd of crds) {
    const info = resourcesFromCrd(crd)
    if (!info) {
      const causes = validateCrd(crd)
      problems.push({
        crd: crdName(crd),
        causes: causes.length > 0 ? causes : [{ message: 'serves no version' }],
      })
      continue
    }
    const causes = conflictCauses(info, byResource, byKind)
    if (causes.length > 0) {
      problems.push({ crd: crdName(crd), causes })
      continue
    }
    const taken = info.shortNames.filter((s) => shortNames.has(s))
    if (taken.length > 0) {
      info.shortNames = info.shortNames.filter((s) => !shortNames.has(s))
      problems.push({
        crd: crdName(crd),
        causes: taken.map((s) => ({
          reason: 'FieldValueDuplicate',
          field: 'spec.names.shortNames',
          message: `short name "${s}" is already in use; it is not served`,
        })),
      })
    }
    index(info)
    fromCrds.push(info)
  }
  fromCrds.sort((a, b) => a.group.localeCompare(b.group) || a.resource.localeCompare(b.resource))
  ordered.push(...fromCrds)

  const groupNames: string[] = []
  const groupVersions = new Map<string, Set<string>>()
  for (const info of ordered) {
    let set = groupVersions.get(info.group)
    if (!set) {
      set = new Set()
      groupVersions.set(info.group, set)
      groupNames.push(info.group)
    }
    for (const v of info.versions) set.add(v)
  }
  const rank = (g: string) => {
    const i = BUILTIN_GROUP_ORDER.indexOf(g)
    return i < 0 ? BUILTIN_GROUP_ORDER.length : i
  }
  groupNames.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  const groups: ApiGroupInfo[] = groupNames.map((name) => {
    const versions = sortByKubeVersionPriority([...(groupVersions.get(name) ?? [])])
    return { name, versions, preferredVersion: versions[0] ?? '' }
  })

  const registry: Registry = {
    all: () => ordered,
    byResource: (group, resource) => byResource.get(key(group, resource)),
    byKind: (group, kind) => byKind.get(key(group, kind)),
    groups: () => groups,
    group: (name) => groups.find((g) => g.name === name),
    resources: (group, version) =>
      ordered.filter((i) => i.group === group && i.versions.includes(version)),
    infoForApiVersion: (apiVersion, kind) => {
      const { group, version } = parseApiVersion(apiVersion)
      const info = byKind.get(key(group, kind))
      if (!info?.versions.includes(version)) return undefined
      return { info, group, version }
    },
    problems,
  }
  return registry
}
