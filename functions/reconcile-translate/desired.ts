/**
 * A mailbox's desired content, computed from the selections of the placements that name its
 * destination (a draft; the reconcile commits it in one manifest write). The union of what they
 * select, one copy per object key: overlapping workloads (the same key from several workload
 * spaces, or from two placements of one space) are combined by overlap.ts — per API group a
 * version chosen for this destination (version-choice.ts, remembered by version-memory.ts),
 * sources that cannot be read at it left out, spaces of different trust scopes never merged (the
 * live copy stays with the spaces its recorded sources name, trust-scopes.ts), the rest
 * customized for this destination
 * (customization.ts; the Location is the one the selecting placements' slices name for it, the
 * first by name) and merged field by field (merge.ts), each conflict returned for reporting.
 * Every copy is written at its group's chosen version and projected over its previous body
 * (seed 001's update rules, which also clear what the merge kept but a copy never carries; a
 * Rollout's stamp is never kept from the previous body, lib/rollout/stamp.ts); every
 * selected namespace and every namespace of a selected object gets a Namespace (the placement's
 * own Namespace object when it selects it, else a bare implied one, which is no source of a
 * merge), except the built-in namespaces every edge already has; Namespaces projected earlier
 * stay (the translator never deletes one). Last, the SyncerConfig `the-one` tells the edge what to
 * sync, at the chosen versions.
 */

import type { Builtins } from '../../lib/apis/builtins.ts'
import { categoryOf } from '../../lib/apis/categories.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { impliedNamespace, projectBody } from '../../lib/placement/project.ts'
import {
  buildSyncerConfig,
  type ResourceRef,
  SYNCER_CONFIG_NAME,
} from '../../lib/placement/syncer-config.ts'
import { withoutStamp } from '../../lib/rollout/stamp.ts'
import type { DesiredEntry, ManifestEntry } from '../../lib/store/projection-types.ts'
import {
  type Conflict,
  type CustomizeFn,
  combine,
  type Gathered,
  gather,
  type OverlapSelection,
  objectKey,
} from './overlap.ts'

export type { Conflict }

/** A placement naming this destination, what it selects, its space's registry and Location. */
export type PlacementSelection = OverlapSelection

/**
 * The customized fresh projection of a selected object for this destination, or undefined to send
 * it as it is (it asks for nothing, or its customization failed).
 */
export type Customize = CustomizeFn

export type Previous = { entry: ManifestEntry; body: KubeObject | undefined }

export type DesiredContent = {
  entries: DesiredEntry[]
  conflicts: Conflict[]
  /**
   * Per object key, the workload spaces the copy was made of: the only spaces its recorded
   * sources may name (removal-plan.ts), so no other space's summaries or views take it for theirs.
   */
  madeOf: ReadonlyMap<string, readonly string[]>
}

/** Per object key, the spaces the previous live copy came from (its recorded sources). */
function holdersOf(previous: readonly Previous[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const { entry: e } of previous) {
    if (e.removing || !e.sources) continue
    out.set(keyOf(e.group, e.resource, e.namespace, e.name), new Set(e.sources.map((s) => s.space)))
  }
  return out
}

const keyOf = objectKey

/** Per API group, the version chosen for this destination (groups of selected objects only). */
export type VersionChoice = { gathered: Gathered; versions: ReadonlyMap<string, string> }

/** The choice without memory: each group's highest candidate (what a first translation picks). */
export function firstChoice(selections: readonly PlacementSelection[]): VersionChoice {
  const gathered = gather(selections)
  const versions = new Map(
    [...gathered.groups].map(([g, c]) => [g, c.candidates[0] ?? ''] as const)
  )
  return { gathered, versions }
}

/**
 * Namespaced resources that go to the edge: at the chosen version for the groups of selected
 * objects, else at each space's preferred version (the SyncerConfig keeps the highest of those).
 */
function namespacedResources(
  selections: readonly PlacementSelection[],
  versions: ReadonlyMap<string, string>
): ResourceRef[] {
  const refs: ResourceRef[] = []
  for (const { registry } of selections) {
    for (const info of registry.all()) {
      if (!info.namespaced || !info.verbs.includes('list')) continue
      if (categoryOf(info.group, info.resource) !== 'to-edge') continue
      const preferred = registry.group(info.group)?.preferredVersion ?? info.versions[0] ?? ''
      const version = versions.get(info.group) ?? preferred
      refs.push({ group: info.group, version, resource: info.resource })
    }
  }
  return refs
}

export function desiredContent(
  selections: readonly PlacementSelection[],
  previous: readonly Previous[],
  builtins: Builtins,
  more: {
    customize?: Customize | undefined
    choice?: VersionChoice
    /** Per `<space id>/<object key>`, when it was last updated (authored-order.ts). */
    authored?: ReadonlyMap<string, bigint>
  } = {}
): DesiredContent {
  const { customize, authored } = more
  const choice = more.choice ?? firstChoice(selections)
  const prev = new Map(
    previous.map((p) => [
      keyOf(p.entry.group, p.entry.resource, p.entry.namespace, p.entry.name),
      p,
    ])
  )
  const versionOf = (group: string) => choice.versions.get(group) ?? ''
  const holders = holdersOf(previous)
  const { objects, conflicts } = combine(choice.gathered, versionOf, {
    customize,
    holders,
    authored,
  })
  const madeOf = new Map([...objects].map(([key, o]) => [key, o.spaces] as const))
  const entries = new Map<string, DesiredEntry>()
  const clusterObjects = new Map<string, { ref: ResourceRef; names: string[] }>()
  const namespaces = new Set(selections.flatMap((s) => s.selection.namespaces))
  for (const [key, { source, object }] of objects) {
    const m = object.metadata
    const e: DesiredEntry = {
      group: source.group,
      version: source.version,
      resource: source.resource,
      namespace: source.namespaced ? (m.namespace ?? '') : '',
      name: m.name ?? '',
      // The stamp is the translator's alone: a copy carries one only when sent from a revision.
      body: projectBody(object, withoutStamp(prev.get(key)?.body)),
    }
    entries.set(key, e)
    if (source.namespaced) namespaces.add(e.namespace)
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
    namespacedResources: namespacedResources(selections, choice.versions),
    clusterObjects: [...clusterObjects.values()],
    upsync: selections.flatMap((s) => s.ref.placement.spec?.upsync ?? []),
  })
  entries.set(keyOf('edge.kcp.io', 'syncerconfigs', '', SYNCER_CONFIG_NAME), {
    group: 'edge.kcp.io',
    version: 'v1alpha1',
    resource: 'syncerconfigs',
    namespace: '',
    name: SYNCER_CONFIG_NAME,
    body: syncerConfig,
  })
  return { entries: [...entries.values()], conflicts, madeOf }
}
