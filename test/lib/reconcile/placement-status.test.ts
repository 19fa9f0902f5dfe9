/**
 * One writer per EdgePlacement status field, against an in-process hub: the where step
 * (reconcileWhere), the translate step (writeCondition) and the summarize step
 * (writePlacementStatus) each apply only their own fields under their own field manager, shown in
 * managedFields; the three writing at once from the same stale read lose nothing and meet no 409;
 * a field a step stops reporting disappears while the others' stay; a user's status edit of a
 * step's field is overwritten by that step, for its own fields only; an unchanged report writes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ReadyFacts,
  writePlacementStatus,
} from '../../../functions/reconcile-summarize/placement-status.ts'
import { writeCondition } from '../../../functions/reconcile-translate/report.ts'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import { decodeObject } from '../../../lib/apis/decode.ts'
import type { PlacementSummary } from '../../../lib/apis/edge-summary.ts'
import { EdgePlacementSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { applyPlacementStatus, STATUS_MANAGERS } from '../../../lib/reconcile/placement-status.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let client: HubClient
let user: HubClient
let rootId: string
const NOW = '2026-03-04T05:06:07Z'
const now = () => new Date(NOW)

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'edgeplane-controller' })
  user = createHubClient(hub.deps, { fieldManager: 'kubectl-edit' })
  rootId = (await client.space('root')).id
})
afterAll(async () => {
  await hub?.close()
})

const counts = { pending: 0, applied: 0, ready: 0, failed: 0, removing: 0, stale: 0 }
const summary = (more: Partial<PlacementSummary> = {}): PlacementSummary => ({
  destinations: 0,
  reportingDestinations: 0,
  staleDestinations: 0,
  objectCount: 0,
  totals: counts,
  objects: [],
  brokenCount: 0,
  broken: [],
  ...more,
})
const facts: ReadyFacts = {
  generation: 1,
  failedByReason: new Map(),
  outdated: 0,
  upsync: true,
  staleAfterMs: 180_000,
}
const translated = { status: 'True' as const, reason: 'Projected', message: 'all projected' }

const create = (name: string) =>
  client.create('root', EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name },
    spec: {},
  })
const read = async (name: string) => (await client.get('root', EDGE_PLACEMENTS, name)) as KubeObject
const where = (name: string) => reconcileWhere({ client, log: silentLogger }, `${rootId}/${name}`)
/** The placement as the steps hold it, decoded by its schema. */
function decoded(ep: KubeObject) {
  const res = decodeObject(EdgePlacementSchema, ep)
  if (!res.ok) throw new Error(`invalid EdgePlacement: ${JSON.stringify(res.problem.issues)}`)
  return res.value
}
const translate = (ep: KubeObject, want = translated) =>
  writeCondition({ client, now, log: silentLogger }, 'root', decoded(ep), want)
const summarize = (ep: KubeObject, s = summary()) =>
  writePlacementStatus(client, { spaceId: 'root', ep: decoded(ep), summary: s, facts, now })

const conditions = (ep: KubeObject) =>
  ((ep.status as JsonObject | undefined)?.conditions ?? []) as JsonObject[]
const condition = (ep: KubeObject, type: string) => conditions(ep).find((c) => c.type === type)
/** Each manager's owned status fields, as FieldsV1 under f:status. */
const owners = (ep: KubeObject) =>
  Object.fromEntries(
    (ep.metadata.managedFields ?? []).map((m) => [
      `${m.manager}/${m.operation}/${m.subresource ?? ''}`,
      (m.fieldsV1 as JsonObject)['f:status'],
    ])
  )

describe('EdgePlacement status writers', () => {
  it('each step owns its fields under its own manager', async () => {
    const ep = await create('ep-owners')
    await where('ep-owners')
    expect(await translate(ep)).toBe(true)
    // Ready's inputs (the other steps' fields) come from the placement as summarize read it.
    expect(await summarize(await read('ep-owners'))).toBe(true)
    const got = await read('ep-owners')
    expect(got.status).toMatchObject({ specGeneration: 1, matchingLocationCount: 0 })
    expect(condition(got, 'Translated')).toMatchObject(translated)
    expect(condition(got, 'Ready')).toMatchObject({ status: 'False', reason: 'NoDestinations' })
    expect(owners(got)).toEqual({
      'edgeplane-where/Apply/status': {
        'f:specGeneration': {},
        'f:matchingLocationCount': {},
        'f:unselectedLocationCount': {},
      },
      'edgeplane-translate/Apply/status': {
        'f:conditions': { 'k:{"type":"Translated"}': expect.any(Object) },
      },
      'edgeplane-summarize/Apply/status': {
        'f:summary': {},
        'f:conditions': { 'k:{"type":"Ready"}': expect.any(Object) },
      },
    })
    expect(Object.values(STATUS_MANAGERS).sort()).toEqual([
      'edgeplane-summarize',
      'edgeplane-translate',
      'edgeplane-where',
    ])
  })

  it('loses nothing when the three write at once from the same read', async () => {
    const ep = await create('ep-race')
    const results = await Promise.all([where('ep-race'), translate(ep), summarize(ep)])
    expect(results[0].outcome).toContain('status updated')
    expect(results.slice(1)).toEqual([true, true])
    const got = await read('ep-race')
    expect(got.status).toMatchObject({
      specGeneration: 1,
      matchingLocationCount: 0,
      summary: summary(),
    })
    expect(
      conditions(got)
        .map((c) => c.type)
        .sort()
    ).toEqual(['Ready', 'Translated'])
  })

  it('drops a field the step stops reporting, and only that', async () => {
    const ep = await create('ep-drop')
    await where('ep-drop')
    await translate(ep)
    const upsync = { count: 1, destinations: 1, objects: [] }
    await summarize(ep, summary({ upsync }))
    expect((await read('ep-drop')).status).toMatchObject({ summary: { upsync } })
    // The summary no longer has upsync: replaced whole, the other steps' fields kept.
    expect(await summarize(await read('ep-drop'))).toBe(true)
    const got = await read('ep-drop')
    expect(got.status).toMatchObject({ specGeneration: 1, summary: summary() })
    expect((got.status as JsonObject).summary).not.toHaveProperty('upsync')
    expect(condition(got, 'Translated')).toBeDefined()
    // A writer that leaves a field out gives it up: translate without its condition.
    expect(
      await applyPlacementStatus(client, {
        spaceId: 'root',
        ep: got,
        writer: 'translate',
        status: {},
      })
    ).toBe(true)
    const after = await read('ep-drop')
    expect(conditions(after).map((c) => c.type)).toEqual(['Ready'])
    expect(after.status).toMatchObject({ specGeneration: 1, matchingLocationCount: 0 })
  })

  it('overwrites a user’s edit of a step’s field by that step only', async () => {
    const ep = await create('ep-edit')
    await where('ep-edit')
    await translate(ep)
    await summarize(ep)
    const before = await read('ep-edit')
    const status = before.status as JsonObject
    const edited = conditions(before).map((c) => ({ ...c, message: 'edited by hand' }))
    await user.updateStatus('root', EDGE_PLACEMENTS, {
      ...before,
      status: { ...status, matchingLocationCount: 99, conditions: edited },
    })
    const afterEdit = await read('ep-edit')
    expect(owners(afterEdit)['kubectl-edit/Update/status']).toBeDefined()

    expect((await where('ep-edit')).outcome).toContain('status updated')
    const whereRan = await read('ep-edit')
    expect((whereRan.status as JsonObject).matchingLocationCount).toBe(0)
    expect(condition(whereRan, 'Translated')?.message).toBe('edited by hand')
    expect(condition(whereRan, 'Ready')?.message).toBe('edited by hand')

    expect(await translate(whereRan)).toBe(true)
    const translateRan = await read('ep-edit')
    expect(condition(translateRan, 'Translated')?.message).toBe(translated.message)
    expect(condition(translateRan, 'Ready')?.message).toBe('edited by hand')
    expect(owners(translateRan)['kubectl-edit/Update/status']).toEqual({
      'f:conditions': { 'k:{"type":"Ready"}': { 'f:message': {} } },
    })
  })

  it('writes nothing when a step reports what the placement already says', async () => {
    const ep = await create('ep-same')
    await where('ep-same')
    await translate(ep)
    await summarize(await read('ep-same'))
    const settled = await read('ep-same')
    expect((await where('ep-same')).outcome).toBe('unchanged')
    expect(await translate(settled)).toBe(false)
    expect(await summarize(settled)).toBe(false)
    // From a stale read translate applies, and the hub finds nothing to change.
    expect(await translate(ep)).toBe(false)
    expect((await read('ep-same')).metadata.resourceVersion).toBe(settled.metadata.resourceVersion)
  })
})
