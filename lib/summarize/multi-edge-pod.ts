/**
 * A Pod's phase and container statuses aggregated over the edges that report it
 * (multi-edge-status.ts): Failed when it failed at any edge, Succeeded when it succeeded at every
 * edge, Running when it runs (or is done) at every edge, else Pending (an edge that has not
 * reported it counts as Pending). Each container of the first edge's report is ready and started
 * only when it is at every edge, with the most restarts of any edge and the state of the first
 * edge where it is not ready (else of the first edge), so `kubectl get pod` reads READY 1/1 only
 * when the container is ready everywhere. Addresses, node names and times of a single edge are left
 * out: they would describe one edge only. Pure.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

const phaseOf = (s: JsonObject | undefined) => (typeof s?.phase === 'string' ? s.phase : 'Pending')

export function aggregatePhase(statuses: readonly (JsonObject | undefined)[]): string {
  const phases = statuses.map(phaseOf)
  if (phases.includes('Failed')) return 'Failed'
  if (phases.length > 0 && phases.every((p) => p === 'Succeeded')) return 'Succeeded'
  if (phases.length > 0 && phases.every((p) => p === 'Running' || p === 'Succeeded'))
    return 'Running'
  return 'Pending'
}

function containers(s: JsonObject | undefined): JsonObject[] {
  const list: JsonValue | undefined = s?.containerStatuses
  return Array.isArray(list) ? list.filter(isJsonObject) : []
}

const restarts = (c: JsonObject | undefined) =>
  typeof c?.restartCount === 'number' ? c.restartCount : 0

export function aggregateContainers(statuses: readonly (JsonObject | undefined)[]): JsonObject[] {
  const first = containers(statuses[0])
  return first.map((c) => {
    const at = statuses.map((s) => containers(s).find((x) => x.name === c.name))
    const notReady = at.findIndex((x) => x?.ready !== true)
    const out: JsonObject = {
      name: c.name ?? '',
      ready: notReady === -1,
      started: at.every((x) => x?.started === true),
      restartCount: Math.max(...at.map(restarts)),
    }
    if (c.image !== undefined) out.image = c.image
    const state = (at[notReady] ?? c).state
    if (isJsonObject(state)) out.state = state
    return out
  })
}
