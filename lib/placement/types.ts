/**
 * Plain types of the placement model: what one workload space holds (the snapshot the steps
 * read), and what one EdgePlacement selects from it (the selection translate projects into
 * mailboxes), with the objects it reaches but must not send, and why.
 */
import type { KubeObject } from '../kube/types.ts'
import type { WorkloadGrant } from '../tenancy/policy.ts'

/** One object of a workload space, with the resource it was read from. */
export type SourceObject = {
  group: string
  version: string
  resource: string
  namespaced: boolean
  object: KubeObject
}

/** Which privileged resources (lib/tenancy/policy.ts `privilegedResource`) a space may send. */
export type ResourceGrant = Pick<WorkloadGrant, 'allowsResource'>

/**
 * Every object of every placeable resource of one workload space, INCLUDING its Namespace objects
 * (group '', resource 'namespaces', namespaced false), with what the space's grants let it send,
 * read in the same batch (snapshot.ts), so every step and the preview judge by one reading.
 */
export type SpaceSnapshot = { spaceId: string; objects: SourceObject[]; grant: ResourceGrant }

export type SkipReason =
  | 'Unsupported'
  | 'SystemInfrastructure'
  | 'NotForEdge'
  | 'BuiltinDefinition'
  | 'NotGranted'

/** An object the placement reaches but that does not go; `namespace` is '' when cluster-scoped. */
export type Skipped = {
  group: string
  resource: string
  namespace: string
  name: string
  reason: SkipReason
  message: string
}

export type Selection = {
  /** Namespaces whose contents are selected (sorted, deduped), including built-in ones. */
  namespaces: string[]
  /**
   * Selected objects to project, sorted by group, resource, namespace, name: namespaced objects in
   * those namespaces plus cluster-scoped objects selected by nonNamespacedObjects (including
   * Namespace objects, whose details then travel). Never deleting objects (deletionTimestamp set =
   * gone). APIBindings (mailbox-only) are included: the caller keeps them out of the SyncerConfig.
   */
  objects: SourceObject[]
  /**
   * Objects the placement reaches but that must not go, with why, in the same order. Only
   * 'Unsupported' and 'NotGranted' (a privileged resource no grant of the space lists) are user
   * errors to report; the others are informational.
   */
  skipped: Skipped[]
  /**
   * Problems with the EdgePlacement itself, in spec order: an invalid label selector (in
   * `namespaceSelector` or a `nonNamespacedObjects[i].labelSelectors[j]`), which then matches
   * nothing. Empty for a valid EdgePlacement. A user error to report, like 'Unsupported'.
   */
  problems: string[]
}
