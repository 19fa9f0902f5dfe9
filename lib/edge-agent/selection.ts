/**
 * Which desired entries the agent applies, and in what order. Never tombstones (`removing`: the
 * center wants them gone, so prune.ts treats them as absent). Applied: the categories that go to
 * the edge (lib/apis/categories.ts: 'to-edge' and 'natured-both'), in three phases — Namespaces,
 * then CRDs, then everything else (so what defines a scope or a type exists before what uses it);
 * pruning runs the phases backwards. Skipped: SyncerConfigs and the rest of the edge API, kinds
 * that stay in the mailbox (APIBindings), those not for the edge or unsupported, the definitions
 * of the edge's built-in namespaces and API groups (lib/apis/builtins.ts: the edge cluster owns
 * them), and the objects every cluster makes for itself (token Secrets, kube-root-ca.crt, the
 * default ServiceAccount).
 */
import { type Builtins, isBuiltinDefinition } from '../apis/builtins.ts'
import { categoryOf, isSystemInfrastructure } from '../apis/categories.ts'
import type { DesiredEntry } from '../edge/protocol.ts'
import type { KubeObject } from '../kube/types.ts'
import type { DesiredCopy } from './desired-store.ts'
import { refKey } from './refs.ts'

export type Phase = 0 | 1 | 2

export type Planned = {
  entry: DesiredEntry
  key: string
  phase: Phase
  body: Record<string, unknown>
}

export const phaseOf = (group: string, resource: string): Phase => {
  if (group === '' && resource === 'namespaces') return 0
  if (group === 'apiextensions.k8s.io' && resource === 'customresourcedefinitions') return 1
  return 2
}

/** Why an entry is not applied, or undefined when it is. */
export function skipReason(
  entry: DesiredEntry,
  body: Record<string, unknown>,
  builtins: Builtins
): string | undefined {
  const category = categoryOf(entry.group, entry.resource)
  if (category !== 'to-edge' && category !== 'natured-both') return category
  const obj = body as unknown as KubeObject
  if (isBuiltinDefinition(entry.group, entry.resource, obj, builtins)) return 'built-in'
  if (isSystemInfrastructure(entry.group, entry.resource, obj)) return 'system'
  return undefined
}

/** The entries to apply, phase by phase, each phase in key order. */
export function planEntries(copy: DesiredCopy, builtins: Builtins): Planned[] {
  const out: Planned[] = []
  for (const entry of copy.entries) {
    const body = copy.bodies[entry.hash]
    if (entry.removing || !body || skipReason(entry, body, builtins) !== undefined) continue
    out.push({ entry, key: refKey(entry), phase: phaseOf(entry.group, entry.resource), body })
  }
  return out.sort((a, b) => a.phase - b.phase || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}
