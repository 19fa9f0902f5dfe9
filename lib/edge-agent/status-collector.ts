/**
 * The status reports of one poll: for each owned, desired object read at the edge this poll, its
 * `.status`, its associated objects (associated.ts) and the `observedGeneration` to claim — the
 * newest center generation the agent applied at an edge generation the edge's controllers have
 * observed (`status.observedGeneration` ≥ that edge generation), or simply the last applied one
 * when the object has no `status.observedGeneration`; 0 when none is observed yet. Objects without
 * a status (a ConfigMap) are reported too, with `{}`: the report says the generation is applied,
 * and it clears a problem the center recorded for the copy. Only reports whose hash differs from
 * the last accepted one (report-state.ts) are returned.
 */
import type { StatusReport } from '../edge/protocol.ts'
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import type { LiveOwned } from './apply.ts'
import { associatedOf, type Lister } from './associated.ts'
import type { OwnedRecord } from './ownership.ts'
import { hashOf, isRecord, refOf } from './refs.ts'

export type StatusItem = { key: string; report: StatusReport; hash: string }

export function observedGenerationOf(obj: KubeObject, record: OwnedRecord): number {
  const gens = record.generations
  const status: Record<string, unknown> = isRecord(obj.status) ? obj.status : {}
  const observed = status.observedGeneration
  if (typeof observed !== 'number') return gens[gens.length - 1]?.center ?? 0
  let best = 0
  for (const g of gens) if (g.edge <= observed && g.center > best) best = g.center
  return best
}

export async function collectStatuses(
  live: readonly LiveOwned[],
  reported: Readonly<Record<string, string>>,
  list: Lister,
  log: Logger
): Promise<StatusItem[]> {
  const out: StatusItem[] = []
  for (const { planned, obj, record } of live) {
    let associated: StatusReport['associated']
    try {
      associated = await associatedOf(obj, planned.entry.group, planned.entry.resource, list)
    } catch (e) {
      log.warn('associated objects unreadable', { key: planned.key, err: e })
      continue
    }
    const report: StatusReport = {
      ...refOf(planned.entry),
      observedGeneration: observedGenerationOf(obj, record),
      status: isRecord(obj.status) ? obj.status : {},
      ...(associated ? { associated } : {}),
    }
    const hash = hashOf([
      report.version,
      report.observedGeneration,
      report.status,
      report.associated ?? null,
    ])
    if (reported[planned.key] !== hash) out.push({ key: planned.key, report, hash })
  }
  return out
}
