/**
 * `GET /ui/api/cell`: one placement at one edge, object by object — the state the summarize step
 * gives the pair, with its reason, the customized copy exactly as the mailbox holds it for that
 * edge (the body the edge API serves), what the edge reported (status and the objects the copy
 * owns there), and the Events the summarize step recorded about the object. At most MAX_OBJECTS
 * objects are listed; `total` counts them all. Only copies made (also) of what this space sent are
 * shown (observe.ts): a copy of the same identity another trust scope holds at the edge is no copy
 * of this space's, and shows as absent, never its content. Within one trust scope a merged copy is
 * shared, and each of its spaces sees it whole. With Rollouts in the space (rollouts.ts, one list):
 * an object a Rollout governs names it and the revision its copy holds, read from the copy's
 * stamp; the edge says its wave under each, and `rollouts` those governing the objects listed.
 */
import { notFound } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import { mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { stampOf } from '../../lib/rollout/stamp.ts'
import { conditions } from '../reconcile-summarize/object-writes.ts'
import { observe } from '../reconcile-summarize/observe.ts'
import { edgeWindow } from './edge-window.ts'
import { rolloutsOf, withWaves } from './rollouts.ts'
import { placementsOf, type View } from './view.ts'

export const MAX_OBJECTS = 50
const MAX_EVENTS = 10

type EventView = {
  type: string
  reason: string
  message: string
  count: number
  lastTimestamp: string | null
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

/** The step's Events about `o`, newest first. */
function eventsAbout(events: readonly KubeObject[], o: SourceObject): EventView[] {
  const m = o.object.metadata
  return events
    .filter((e) => {
      const inv = (e as { involvedObject?: Record<string, unknown> }).involvedObject ?? {}
      return (
        inv.kind === o.object.kind &&
        inv.name === m.name &&
        (inv.namespace ?? '') === (m.namespace ?? '')
      )
    })
    .map((e) => {
      const r = e as Record<string, unknown>
      const last = str(r.lastTimestamp) || str(r.eventTime) || null
      return {
        type: str(r.type),
        reason: str(r.reason),
        message: str(r.message),
        count: typeof r.count === 'number' ? r.count : 1,
        lastTimestamp: last,
      }
    })
    .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''))
    .slice(0, MAX_EVENTS)
}

export async function cellOf(view: View, space: Space, q: { placement: string; edge: string }) {
  const placements = await placementsOf(view, space)
  const p = placements.find((x) => x.placement.metadata.name === q.placement)
  if (!p) throw notFound('edgeplacements', { group: 'edge.kcp.io', name: q.placement })
  const d = p.destinations.find((x) => mailboxOfDestination(x) === q.edge)
  if (!d) throw notFound('edges', { name: `${q.edge} (not a destination of ${q.placement})` })
  const shown = p.objects.slice(0, MAX_OBJECTS)
  const edges = await edgeWindow(view, [d])
  const reads = { ...view.reads, inventory: edges.inventory }
  const pairs = shown.map((object) => ({ object, destinations: [d] }))
  const [seen, events, rollouts] = await Promise.all([
    observe(reads, view.hub.projections, { spaceId: space.id, pairs, destinations: [d] }),
    view.reads.events(space.id),
    rolloutsOf(view, space),
  ])
  const condition = conditions(seen, view.nowMs)
  const objects = shown.map((o) => {
    const c = condition(o, d)
    const facts = seen.facts(o, d)
    const k = copyKeyOf(o)
    const governor = rollouts.governorOf(o)
    const stamp = facts.body ? stampOf(facts.body) : undefined
    return {
      group: k.group,
      version: o.object.apiVersion.includes('/')
        ? o.object.apiVersion.split('/')[1]
        : o.object.apiVersion,
      resource: k.resource,
      kind: o.object.kind,
      ...(k.namespace ? { namespace: k.namespace } : {}),
      name: k.name,
      state: c.state,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
      copy: facts.body ?? null,
      reported:
        facts.state && facts.entry && facts.state.uid === facts.entry.uid
          ? facts.state.status
          : null,
      associated: facts.state?.associated ?? [],
      events: eventsAbout(events, o),
      ...(governor
        ? {
            rollout: {
              name: governor,
              revision: stamp?.rollout === governor ? stamp.revision : null,
            },
          }
        : {}),
    }
  })
  const [edge] = await withWaves(rollouts, edges.items, [d], edges.inventory)
  const governing = new Set(rollouts.governing(shown))
  return {
    placement: q.placement,
    edge,
    total: p.objects.length,
    objects,
    rollouts: rollouts.views.filter((r) => governing.has(r.name)),
  }
}
