/**
 * The Translated condition write of the translate step against an in-process hub, when the
 * placement it holds is stale because another step (where, summarize) wrote the status since the
 * batch's snapshot: the condition alone is applied, the other fields stay, a condition already as
 * wanted is not written again (the hub finds nothing to change), and a placement re-created
 * meanwhile (another uid) is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeCondition } from '../../../functions/reconcile-translate/report.ts'
import { decodeObject } from '../../../lib/apis/decode.ts'
import { EdgePlacementSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import type { TestHub } from '../../helpers/hub.ts'
import { createProdPlacement, hubWithClient } from '../../helpers/hub-client.ts'

let hub: TestHub
let client: HubClient
const NOW = '2026-03-04T05:06:07Z'
const want = { status: 'False' as const, reason: 'CustomizationFailed', message: 'cm: not found' }
const deps = () => ({ client, now: () => new Date(NOW), log: silentLogger })

beforeAll(async () => {
  ;({ hub, client } = await hubWithClient())
})
afterAll(async () => {
  await hub?.close()
})

const create = (name: string) => createProdPlacement(client, name)

/** The placement as the step holds it, decoded by its schema. */
function decoded(ep: KubeObject) {
  const res = decodeObject(EdgePlacementSchema, ep)
  if (!res.ok) throw new Error(`invalid EdgePlacement: ${JSON.stringify(res.problem.issues)}`)
  return res.value
}

/** Another step's status write, making `ep` stale. */
const otherWrite = (ep: KubeObject) =>
  client.updateStatus('root', EDGE_PLACEMENTS, { ...ep, status: { matchingLocationCount: 2 } })

describe('writeCondition with a stale placement', () => {
  it('writes the condition over the fresh status, keeping what the other step wrote', async () => {
    const stale = await create('ep-stale')
    await otherWrite(stale)
    expect(await writeCondition(deps(), 'root', decoded(stale), want)).toBe(true)
    const got = await client.get('root', EDGE_PLACEMENTS, 'ep-stale')
    expect(got?.status).toEqual({
      matchingLocationCount: 2,
      conditions: [{ type: 'Translated', ...want, observedGeneration: 1, lastTransitionTime: NOW }],
    })
    // Again with the same stale copy: the fresh one already says so, nothing is written.
    expect(await writeCondition(deps(), 'root', decoded(stale), want)).toBe(false)
    const again = await client.get('root', EDGE_PLACEMENTS, 'ep-stale')
    expect(again?.metadata.resourceVersion).toBe(got?.metadata.resourceVersion)
  })

  it('leaves a placement re-created since the snapshot to its own run', async () => {
    const stale = await create('ep-again')
    await client.delete('root', EDGE_PLACEMENTS, 'ep-again')
    const reborn = await create('ep-again')
    await otherWrite(reborn)
    expect(await writeCondition(deps(), 'root', decoded(stale), want)).toBe(false)
    const got = await client.get('root', EDGE_PLACEMENTS, 'ep-again')
    expect(got?.status).toEqual({ matchingLocationCount: 2 })
  })
})
