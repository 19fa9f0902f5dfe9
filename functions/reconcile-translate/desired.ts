/**
 * A mailbox's desired content, computed from the selections of the placements that name its
 * destination (a draft; the reconcile commits it in one manifest write). The union of what they
 * select, each object once: the same object selected by two placements of one space is one copy;
 * the same group/resource/namespace/name from two workload spaces is a conflict, resolved for now
 * by taking the source with the highest resourceVersion (the most recently written) and reported.
 * A copy may first be customized for this destination (`customize`, see customization.ts; the
 * Location is the one the selecting placements' slices name for it, the first by name); then it is
 * projected over its previous body (seed 001's update rules); every selected
 * namespace and every namespace of a selected object gets a Namespace (the placement's own
 * Namespace object when it selects it, else a bare implied one), except the built-in namespaces
 * every edge already has; Namespaces projected earlier stay (the translator never deletes one).
 * Last, the SyncerConfig `the-one` tells the edge what to sync.
 */

import type { Builtins } from '../../lib/apis/builtins.ts'
import { categoryOf } from '../../lib/apis/categories.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { DesiredEntry, ManifestEntry } from '../../lib/store/projection-types.ts'
import type { LocationRef } from './customization.ts'
import { impliedNamespace, projectBody } from './project.ts'
import type { PlacementRef } from './snapshot.ts'
import { buildSyncerConfig, type ResourceRef, SYNCER_CONFIG_NAME } from './syncer-config.ts'
import type { Selection, SourceObject } from './types.ts'

export type PlacementSelection = {
  ref: PlacementRef
  selection: Selection
  registry: Registry
  /** The Location its slice names for this mailbox's SyncTarget. */
  location?: LocationRef | undefined
}

/**
 * The customized fresh projection of a selected object for this destination, or undefined to send
 * it as it is (it asks for nothing, or its customization failed).
 */
export type Customize = (
  spaceId: string,
  source: SourceObject,
  location: LocationRef | undefined
) => KubeObject | undefined

/** The same object key offered by several workload spaces. */
export type Conflict = {
  key: string
  chosen: { spaceId: string; resourceVersion: string }
  others: { spaceId: string; resourceVersion: string }[]
}

export type Previous = { entry: ManifestEntry; body: KubeObject | undefined }

export type DesiredContent = { entries: DesiredEntry[]; conflicts: Conflict[] }

type Picked = {
  source: SourceObject
  spaceId: string
  others: Map<string, string>
  location: LocationRef | undefined
}

const firstLocation = (a: LocationRef | undefined, b: LocationRef | undefined) =>
  !a || (b && b.name < a.name) ? b : a

const keyOf = (group: string, resource: string, namespace: string, name: string) =>
  `${group}/${resource}/${namespace}/${name}`

const rvOf = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0)

function pick(selections: readonly PlacementSelection[]): Map<string, Picked> {
  const picked = new Map<string, Picked>()
  for (const { ref, selection, location } of selections) {
    for (const source of selection.objects) {
      const m = source.object.metadata
      const key = keyOf(source.group, source.resource, m.namespace ?? '', m.name ?? '')
      const had = picked.get(key)
      const mine = { source, spaceId: ref.spaceId, location }
      if (!had) {
        picked.set(key, { ...mine, others: new Map() })
      } else if (had.spaceId === ref.spaceId) {
        had.location = firstLocation(had.location, location)
      } else {
        const [win, lose] =
          rvOf(source.object) > rvOf(had.source.object) ? [mine, had] : [had, mine]
        const others = new Map(had.others)
        others.set(lose.spaceId, lose.source.object.metadata.resourceVersion ?? '')
        others.delete(win.spaceId)
        picked.set(key, { ...win, others })
      }
    }
  }
  return picked
}

/** Namespaced resources that go to the edge, at each space's preferred version. */
function namespacedResources(selections: readonly PlacementSelection[]): ResourceRef[] {
  const refs: ResourceRef[] = []
  for (const { registry } of selections) {
    for (const info of registry.all()) {
      if (!info.namespaced || !info.verbs.includes('list')) continue
      if (categoryOf(info.group, info.resource) !== 'to-edge') continue
      const version = registry.group(info.group)?.preferredVersion ?? info.versions[0] ?? ''
      refs.push({ group: info.group, version, resource: info.resource })
    }
  }
  return refs
}

function entry(p: Picked, previous: Previous | undefined, customize?: Customize): DesiredEntry {
  const { source } = p
  const m = source.object.metadata
  const customized = customize?.(p.spaceId, source, p.location)
  return {
    group: source.group,
    version: source.version,
    resource: source.resource,
    namespace: source.namespaced ? (m.namespace ?? '') : '',
    name: m.name ?? '',
    body: projectBody(customized ?? source.object, previous?.body),
  }
}

export function desiredContent(
  selections: readonly PlacementSelection[],
  previous: readonly Previous[],
  builtins: Builtins,
  customize?: Customize
): DesiredContent {
  const prev = new Map(
    previous.map((p) => [
      keyOf(p.entry.group, p.entry.resource, p.entry.namespace, p.entry.name),
      p,
    ])
  )
  const picked = pick(selections)
  const entries = new Map<string, DesiredEntry>()
  const clusterObjects = new Map<string, { ref: ResourceRef; names: string[] }>()
  const namespaces = new Set(selections.flatMap((s) => s.selection.namespaces))
  for (const [key, p] of picked) {
    const e = entry(p, prev.get(key), customize)
    entries.set(key, e)
    if (p.source.namespaced) namespaces.add(e.namespace)
    else if (categoryOf(e.group, e.resource) !== 'mailbox-only') {
      const rk = `${e.group}/${e.resource}`
      const ref = { group: e.group, version: e.version, resource: e.resource }
      const at = clusterObjects.get(rk) ?? { ref, names: [] }
      at.names.push(e.name)
      clusterObjects.set(rk, at)
    }
  }
  for (const ns of namespaces) {
    const key = keyOf('', 'namespaces', '', ns)
    if (builtins.namespaces.has(ns) || entries.has(key)) continue
    const body = impliedNamespace(ns, prev.get(key)?.body)
    entries.set(key, {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      namespace: '',
      name: ns,
      body,
    })
  }
  for (const [key, p] of prev) {
    if (p.entry.group !== '' || p.entry.resource !== 'namespaces' || entries.has(key) || !p.body)
      continue
    entries.set(key, { ...p.entry, body: p.body })
  }
  const syncerConfig = buildSyncerConfig({
    namespaces: [...namespaces],
    namespacedResources: namespacedResources(selections),
    clusterObjects: [...clusterObjects.values()],
    upsync: selections.flatMap((s) => {
      const up = (s.ref.placement.spec as { upsync?: unknown } | undefined)?.upsync
      return Array.isArray(up) ? up : []
    }),
  })
  entries.set(keyOf('edge.kcp.io', 'syncerconfigs', '', SYNCER_CONFIG_NAME), {
    group: 'edge.kcp.io',
    version: 'v1alpha1',
    resource: 'syncerconfigs',
    namespace: '',
    name: SYNCER_CONFIG_NAME,
    body: syncerConfig,
  })
  const conflicts = [...picked]
    .filter(([, p]) => p.others.size > 0)
    .map(([key, p]) => ({
      key,
      chosen: {
        spaceId: p.spaceId,
        resourceVersion: p.source.object.metadata.resourceVersion ?? '',
      },
      others: [...p.others].map(([spaceId, resourceVersion]) => ({ spaceId, resourceVersion })),
    }))
  return { entries: [...entries.values()], conflicts }
}
