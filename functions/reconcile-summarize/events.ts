/**
 * Edge problems as core/v1 Events in the workload space, written by the summarize step (their one
 * writer): per placement, the Warning Events its failed pairs call for
 * (lib/summarize/edge-problems.ts) — per reason one about the EdgePlacement itself, in `default`
 * (where kube records Events of a cluster-scoped object; `kubectl describe edgeplacement` lists
 * them by involvedObject name, kind, uid and an empty namespace), and per (object, reason) one
 * about the object, in the object's namespace (`default` for a cluster-scoped one), involvedObject
 * the object with its uid — reason the problem's (ApplyFailed, ForeignObject, ...), the message
 * counting and naming the edges, source `edgeplane-summarize`. Each Event is owned by its
 * EdgePlacement (an ownerReference: deleting the placement collects them, and nothing else does:
 * the placement's stay when the objects and their namespace go) and has a deterministic name
 * (names.ts), so a run finds what earlier runs recorded: creates are absent-only, updates and
 * deletes carry the Event's resourceVersion, and the pace (lib/summarize/event-pace.ts) bumps
 * `count` and `lastTimestamp` on the Event rather than adding one, at most once a minute per
 * Event and twenty writes per run. Events of the placement last seen an hour ago are deleted
 * (kube's event TTL), so they never pile up. Failures are logged and retried by a later run,
 * never fatal: the summary matters more than the message.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { EDGE_API_VERSION } from '../../lib/apis/edge-v1alpha1.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { timestamp } from '../../lib/kube/time.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import type { ProblemEvent } from '../../lib/summarize/edge-problems.ts'
import {
  isExpired,
  MAX_EVENT_SWEEPS,
  MAX_EVENT_WRITES,
  type Pace,
  paceEvent,
  type Recorded,
} from '../../lib/summarize/event-pace.ts'
import { EVENT_COMPONENT, problemEventName } from './names.ts'
import type { Reads } from './reads.ts'

const EVENTS = { group: '', version: 'v1', resource: 'events' }
/** How soon to run again when the per-run caps left work over. */
const MORE_SOON_MS = 5_000

export type EventDeps = { client: HubClient; log: Logger; now: () => Date }

export type EventsDone = { written: number; swept: number; retryInMs?: number }

const ownedBy = (e: KubeObject, uid: string) =>
  (e.metadata.ownerReferences ?? []).some((r) => r.kind === 'EdgePlacement' && r.uid === uid)

const idOf = (namespace: string, name: string) => `${namespace}/${name}`

function eventBody(ep: KubeObject, want: ProblemEvent, name: string, at: string): KubeObject {
  const m = ep.metadata
  const { namespace = '', ...involved } = want.involved
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: namespace || 'default',
      ownerReferences: [
        {
          apiVersion: EDGE_API_VERSION,
          kind: 'EdgePlacement',
          name: m.name ?? '',
          uid: m.uid ?? '',
        },
      ],
    },
    involvedObject: { ...involved, namespace },
    reason: want.reason,
    message: want.message,
    type: 'Warning',
    source: { component: EVENT_COMPONENT },
    reportingComponent: EVENT_COMPONENT,
    reportingInstance: '',
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  } as unknown as KubeObject
}

async function write(
  run: Pick<Run, 'deps' | 'spaceId'>,
  pace: Pace,
  fresh: KubeObject,
  old: KubeObject | undefined
): Promise<void> {
  const { deps, spaceId } = run
  if (pace.kind === 'create' || !old) {
    await deps.client.create(spaceId, EVENTS, fresh)
    return
  }
  const f = fresh as KubeObject & Record<string, unknown>
  const next: Record<string, unknown> = {
    ...old,
    message: f.message,
    lastTimestamp: f.lastTimestamp,
  }
  if (pace.kind === 'restart') Object.assign(next, { count: 1, firstTimestamp: f.firstTimestamp })
  if (pace.kind === 'repeat') next.count = pace.count
  // The Event's resourceVersion rides along: a concurrent writer makes this a 409.
  await deps.client.update(spaceId, EVENTS, next as KubeObject)
}

type Run = {
  deps: EventDeps
  spaceId: string
  done: EventsDone
  nowMs: number
}

const later = (run: Run, ms: number) => {
  run.done.retryInMs = Math.min(run.done.retryInMs ?? ms, ms)
}

const idOfEvent = (e: KubeObject) => idOf(e.metadata.namespace ?? '', e.metadata.name ?? '')

/** Records one wanted Event as its pace says. */
async function record(run: Run, fresh: KubeObject, want: ProblemEvent, old?: KubeObject) {
  const pace = paceEvent(old as Recorded | undefined, want.message, run.nowMs)
  if (pace.kind === 'keep') return
  if (pace.kind === 'wait') return later(run, pace.ms)
  if (run.done.written >= MAX_EVENT_WRITES) return later(run, MORE_SOON_MS)
  try {
    await write(run, pace, fresh, old)
    run.done.written++
  } catch (e) {
    // A concurrent run recorded it first (409), or the namespace is gone or terminating.
    if (!isApiError(e) || e.code !== 409)
      run.deps.log.warn('could not record event', {
        spaceId: run.spaceId,
        event: idOfEvent(fresh),
        error: e,
      })
  }
}

/** Deletes the placement's expired Events no problem calls for now. */
async function sweep(run: Run, recorded: readonly KubeObject[], wanted: ReadonlySet<string>) {
  for (const e of recorded) {
    if (wanted.has(idOfEvent(e)) || !isExpired(e as Recorded, run.nowMs)) continue
    if (run.done.swept >= MAX_EVENT_SWEEPS) return later(run, MORE_SOON_MS)
    const m = e.metadata
    try {
      await run.deps.client.delete(run.spaceId, EVENTS, m.name ?? '', {
        ...(m.namespace ? { namespace: m.namespace } : {}),
        ...(m.uid ? { uid: m.uid } : {}),
        ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
      })
      run.done.swept++
    } catch (err) {
      if (!isApiError(err) || (err.code !== 404 && err.code !== 409))
        run.deps.log.warn('could not delete expired event', {
          spaceId: run.spaceId,
          event: idOfEvent(e),
          error: err,
        })
    }
  }
}

/** Brings the placement's Events in line with its edge problems; never throws. */
export async function recordProblemEvents(
  deps: EventDeps,
  reads: Reads,
  w: { spaceId: string; ep: EdgePlacementObject; wants: readonly ProblemEvent[] }
): Promise<EventsDone> {
  const { spaceId, ep, wants } = w
  const uid = ep.metadata.uid ?? ''
  const run: Run = { deps, spaceId, done: { written: 0, swept: 0 }, nowMs: deps.now().getTime() }
  let recorded: KubeObject[]
  try {
    recorded = (await reads.events(spaceId)).filter((e) => ownedBy(e, uid))
  } catch (e) {
    deps.log.warn('could not list events', { spaceId, placement: ep.metadata.name, error: e })
    return run.done
  }
  const byId = new Map(recorded.map((e) => [idOfEvent(e), e]))
  const wanted = new Set<string>()
  const at = timestamp(deps.now())
  for (const want of wants) {
    const fresh = eventBody(ep, want, problemEventName(uid, want), at)
    wanted.add(idOfEvent(fresh))
    await record(run, fresh, want, byId.get(idOfEvent(fresh)))
  }
  await sweep(run, recorded, wanted)
  return run.done
}
