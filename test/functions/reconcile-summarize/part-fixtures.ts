/**
 * Plain values for the table tests of the summarize step's parts (reconcile-*.test.ts), built
 * without a hub: destinations, source objects, what the mailboxes hold (an Observations over a
 * table of facts per object and destination), the scope, the removals and a whole run input with
 * defaults any test may override. Pair conditions come from the facts through the step's own
 * `conditions`, so a table says what a mailbox holds and the parts see what the step would.
 */

import { currentSpecHash } from '../../../functions/reconcile-summarize/current-spec.ts'
import { conditions } from '../../../functions/reconcile-summarize/object-writes.ts'
import type { Observations, Seen } from '../../../functions/reconcile-summarize/observe.ts'
import { pairFacts } from '../../../functions/reconcile-summarize/pair-facts.ts'
import type { Removals } from '../../../functions/reconcile-summarize/removals.ts'
import { rolloutStandings } from '../../../functions/reconcile-summarize/rollout-standings.ts'
import type { RunInput } from '../../../functions/reconcile-summarize/run-input.ts'
import { objectKey, type Scope } from '../../../functions/reconcile-summarize/scope.ts'
import type { Unknowns } from '../../../functions/reconcile-summarize/unknown-placements.ts'
import type { EdgePlacementObject } from '../../../lib/apis/edge-objects.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  type Destination,
  mailboxOfDestination,
  uniqueDestinations,
} from '../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import { ROLLOUT_REVISION_ANNOTATION } from '../../../lib/rollout/stamp.ts'
import type { ManifestEntry, StoredCopyState } from '../../../lib/store/projection-types.ts'
import { DEFAULT_LIVENESS } from '../../../lib/summarize/liveness.ts'

export const SPACE = 'ws-1'
export const NOW = Date.parse('2026-12-01T12:00:00Z')

export const dest = (name: string): Destination => ({
  cluster: 'imw-1',
  locationName: name,
  syncTargetName: name,
  syncTargetUID: `uid-${name}`,
})

type Meta = { generation?: number; annotations?: Record<string, string>; finalizers?: string[] }

export function deployment(name: string, replicas = 2, meta: Meta = {}): SourceObject {
  return {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespaced: true,
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'app', uid: `uid-${name}`, generation: 1, ...meta },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: { spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      },
    },
  }
}

export function configMap(name: string, meta: Meta = {}): SourceObject {
  return {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespaced: true,
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'app', uid: `uid-${name}`, ...meta },
      data: { a: '1' },
    },
  }
}

export function placementObject(name: string, generation = 1): EdgePlacementObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name, uid: `uid-${name}`, generation },
    spec: { locationSelectors: [] },
  } as unknown as EdgePlacementObject
}

/** What one mailbox holds of one object: its copy (current spec unless told), its report. */
export type Held = {
  /** The report: a status for the copy's current generation, or a problem. */
  status?: Record<string, unknown>
  problem?: { reason: string; message: string }
  /** The report is for an older generation of the copy. */
  older?: boolean
  /** The copy still carries an older spec of the object. */
  outdatedSpec?: boolean
  /** The copy is a tombstone. */
  removing?: boolean
  /** The spaces the copy was made of (default: this space). */
  sources?: string[]
  /** The copy's rollout-revision stamp (lib/rollout/stamp.ts), `<rollout>/<revision>`. */
  stamp?: string
}

export type Table = {
  objects: SourceObject[]
  destinations: Destination[]
  /** By object name, then destination name; absent: not in that mailbox. */
  held: Record<string, Record<string, Held>>
  /** Destinations heard from long ago (stale); every other one beat a minute before NOW. */
  stale?: string[]
}

async function entryOf(o: SourceObject, h: Held): Promise<ManifestEntry> {
  const m = o.object.metadata
  return {
    group: o.group,
    version: o.version,
    resource: o.resource,
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    hash: `body-${m.name}`,
    specHash: h.outdatedSpec ? 'older-spec' : ((await currentSpecHash(o)) ?? 'customized'),
    rv: 1,
    uid: `copy-${m.name}`,
    created: '2026-12-01T00:00:00Z',
    generation: 2,
    ...(h.removing ? { removing: '2026-12-01T11:00:00Z' } : {}),
    sources: (h.sources ?? [SPACE]).map((space) => ({ space, placements: ['p'] })),
  } as ManifestEntry
}

function stateOf(o: SourceObject, h: Held): StoredCopyState | undefined {
  if (!h.status && !h.problem) return undefined
  return {
    uid: `copy-${o.object.metadata.name}`,
    observedGeneration: h.older ? 1 : 2,
    ...(h.status ? { status: h.status } : {}),
    ...(h.problem ? { problem: h.problem } : {}),
    rv: 1,
  } as unknown as StoredCopyState
}

/** `body` carrying the rollout-revision stamp `stamp`. */
function stamped(body: KubeObject, stamp: string): KubeObject {
  const annotations = { ...body.metadata.annotations, [ROLLOUT_REVISION_ANNOTATION]: stamp }
  return { ...body, metadata: { ...body.metadata, annotations } }
}

/** What the mailboxes of `t` hold, as observe.ts would have read it. */
export async function observations(t: Table): Promise<Observations> {
  const beatOf = (d: Destination) =>
    t.stale?.includes(d.syncTargetName) ? NOW - 3_600_000 : NOW - 60_000
  const facts = new Map<string, Map<string, Awaited<ReturnType<Observations['facts']>>>>()
  for (const o of t.objects) {
    const row = new Map()
    for (const d of t.destinations) {
      const h = t.held[o.object.metadata.name ?? '']?.[d.syncTargetName]
      if (!h) {
        row.set(mailboxOfDestination(d), { beatAt: beatOf(d) })
        continue
      }
      const state = stateOf(o, h)
      row.set(mailboxOfDestination(d), {
        beatAt: beatOf(d),
        entry: await entryOf(o, h),
        ...(state ? { state } : {}),
        body: h.stamp ? stamped(o.object, h.stamp) : o.object,
      })
    }
    facts.set(objectKey(o), row)
  }
  return {
    destination: (d): Seen => ({
      destination: d,
      mailbox: mailboxOfDestination(d),
      beatAt: beatOf(d),
      locationLabels: { loc: d.locationName },
    }),
    facts: (o, d) => facts.get(objectKey(o))?.get(mailboxOfDestination(d)) ?? { beatAt: beatOf(d) },
  }
}

/** A scope where the key's placement `p` (when given) selects `objects`, all to `destinations`. */
export function scopeOver(t: Table, mine?: EdgePlacementObject): Scope {
  const placed = new Map(t.objects.map((o) => [objectKey(o), o]))
  return {
    ...(mine
      ? { mine: { placement: mine, destinations: t.destinations, objects: t.objects } }
      : {}),
    placed,
    destinationsOf: (o) => (placed.has(objectKey(o)) ? uniqueDestinations(t.destinations) : []),
    summarizers: [],
  }
}

export const noRemovals = (over: Partial<Removals> = {}): Removals => ({
  removingOf: () => [],
  holds: () => false,
  pendingLive: false,
  departed: [],
  recorded: false,
  ...over,
})

export const noUnknowns = (over: Partial<Unknowns> = {}): Unknowns => ({
  keepCounts: false,
  holdLifting: false,
  destinations: [],
  keys: [],
  ...over,
})

/** A whole run input over `t`, the key's placement `p`, and `extra` objects in the space. */
export async function runInput(
  t: Table,
  over: Partial<RunInput> & { extra?: SourceObject[]; mine?: boolean } = {}
): Promise<RunInput> {
  const { extra = [], mine = true, ...rest } = over
  const seen = await observations(t)
  const scope = scopeOver(t, mine ? placementObject('p') : undefined)
  const condition = conditions(seen, NOW)
  const own = mine ? uniqueDestinations(t.destinations) : []
  const facts = mine ? await pairFacts(t.objects, own, condition, seen) : undefined
  const standings = mine ? rolloutStandings(t.objects, own, condition, seen) : undefined
  return {
    rule: DEFAULT_LIVENESS,
    spaceId: SPACE,
    key: `${SPACE}/p`,
    space: {
      spaceId: SPACE,
      objects: [...t.objects, ...extra],
      grant: { allowsResource: () => true },
    },
    placements: [],
    scope,
    own,
    observed: t.destinations,
    seen,
    condition,
    ...(facts ? { facts } : {}),
    ...(standings ? { standings } : {}),
    nowMs: NOW,
    removals: noRemovals(),
    unknown: noUnknowns(),
    placed: (o) => scope.placed.has(objectKey(o)),
    ...rest,
  }
}

/** A function that records each call's arguments and answers with `answer`. */
export function recorder<A extends unknown[], R>(answer: (...args: A) => R) {
  const calls: A[] = []
  const fn = (...args: A): R => {
    calls.push(args)
    return answer(...args)
  }
  return { fn, calls }
}
