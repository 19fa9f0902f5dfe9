/**
 * The Rollout's Events (core/v1, in `default`, where kube records Events of a cluster-scoped
 * object; `kubectl describe rollout` lists them by involvedObject): one per thing
 * lib/rollout/progress.ts reports — a wave promoted, a new revision, a completion (Normal), a
 * failed gate or a rollback (Warning) — owned by the Rollout (deleting it collects them), source
 * `edgeplane-rollout`. Each has a deterministic name (the Rollout's name and a hash of its uid,
 * reason and message), created only if absent, so a run that is repeated records nothing twice.
 * A failed write is logged and left: the status says the same, and matters more.
 */
import { EDGE_API_VERSION } from '../../lib/apis/edge-v1alpha1.ts'
import { isApiError } from '../../lib/errors.ts'
import { fnv1a } from '../../lib/fnv.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import type { RolloutEvent } from '../../lib/rollout/progress.ts'
import { ROLLOUT_MANAGER } from './names.ts'

const EVENTS = { group: '', version: 'v1', resource: 'events' }

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

export const rolloutEventName = (rollout: KubeObject, e: RolloutEvent) =>
  `${rollout.metadata.name}.${fnv1a(`${rollout.metadata.uid}/${e.reason}/${e.message}`).toString(16)}`

/** Records `events` about `rollout`; how many were written. */
export async function recordEvents(
  deps: { client: HubClient; log: Logger },
  about: { spaceId: string; rollout: KubeObject; nowMs: number },
  events: readonly RolloutEvent[]
): Promise<number> {
  const { spaceId, rollout, nowMs } = about
  let written = 0
  const at = iso(nowMs)
  const m = rollout.metadata
  for (const e of events) {
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: rolloutEventName(rollout, e),
        namespace: 'default',
        ownerReferences: [
          { apiVersion: EDGE_API_VERSION, kind: 'Rollout', name: m.name ?? '', uid: m.uid ?? '' },
        ],
      },
      involvedObject: {
        apiVersion: EDGE_API_VERSION,
        kind: 'Rollout',
        name: m.name ?? '',
        uid: m.uid ?? '',
      },
      type: e.type,
      reason: e.reason,
      message: e.message,
      source: { component: ROLLOUT_MANAGER },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    }
    try {
      await deps.client.create(spaceId, EVENTS, body)
      written++
    } catch (err) {
      if (isApiError(err) && err.code === 409) continue
      deps.log.warn('rollout event not recorded', { rollout: m.name, reason: e.reason })
    }
  }
  return written
}
