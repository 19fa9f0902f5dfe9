/**
 * Which spaces the relay knows to be the edge service provider's: `root:espw` (its id is given)
 * and every space below it — the mailboxes and whatever was made under one — learnt from the
 * Workspace events the relay watches anyway (a Workspace in space P with `spec.cluster` C makes C
 * a child of P; Workspaces are listed afresh at every start). Control objects found in those
 * spaces (placements, slices, SyncTargets, Locations, Customizers, Summarizers, child
 * Workspaces...) wake no step (event-keys.ts): what an edge reports is data, never control. A
 * space is remembered for good once seen (ids are never reused), so the events of its content's
 * deletion are still known for what they are. What the relay has not learnt yet (a Workspace event
 * still on its way) counts as no provider space: the steps themselves ignore such spaces too
 * (lib/hub/service-provider-space.ts), so a key the relay wakes early runs to nothing.
 */
import { CLUSTER_ANNOTATION, type JsonValue, type KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

export type ProviderSpaces = {
  /** Takes in a tenancy.kcp.io Workspace event (ADDED, MODIFIED, DELETED). */
  observe(obj: KubeObject): void
  /** Whether the space with this id is root:espw or below it, as far as the relay has seen. */
  has(spaceId: string): boolean
}

/** Deeper than any space path the hub accepts: a guard against a parent loop. */
const MAX_DEPTH = 256

export function createProviderSpaces(espwSpaceId: string): ProviderSpaces {
  /** Space id -> its parent's space id, for every Workspace seen. */
  const parentOf = new Map<string, string>()
  return {
    observe(obj) {
      const spec = obj.spec as JsonValue | undefined
      const child = isJsonObject(spec) && typeof spec.cluster === 'string' ? spec.cluster : ''
      const parent = obj.metadata?.annotations?.[CLUSTER_ANNOTATION] ?? ''
      if (child && parent && child !== parent) parentOf.set(child, parent)
    },
    has(spaceId) {
      let id: string | undefined = spaceId
      for (let depth = 0; id && depth < MAX_DEPTH; depth++) {
        if (id === espwSpaceId) return true
        id = parentOf.get(id)
      }
      return false
    },
  }
}
