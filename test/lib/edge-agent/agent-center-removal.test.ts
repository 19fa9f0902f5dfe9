/**
 * The deletion lifecycle end to end between the real center and a simulated edge cluster
 * (center-fixture.ts): a copy the translator turns into a tombstone shows terminating in the
 * mailbox, is deleted at the edge by the agent, and the agent's confirmation lands through the
 * real reports endpoint as a `gone` state of that copy; the confirmation is not sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CenterEdge, entry, startCenterAndEdge } from './center-fixture.ts'
import { ref } from './fixture.ts'

let t: CenterEdge
beforeAll(async () => {
  t = await startCenterAndEdge()
})
afterAll(() => t?.close())

const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } }
const cm = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'gone' },
  data: { a: '1' },
}
const syncerConfig = {
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncerConfig',
  metadata: { name: 'the-one' },
  spec: { namespaceScope: { namespaces: ['gone'], resources: [] } },
}
const live = [
  entry('v1', 'namespaces', '', ns),
  entry('edge.kcp.io/v1alpha1', 'syncerconfigs', '', syncerConfig),
]
const cmRef = ref('v1', 'configmaps', 'gone', 'cfg')

describe('removal through the real center', () => {
  it('deletes a tombstoned copy at the edge and records the confirmation', async () => {
    await t.setMailbox([...live, entry('v1', 'configmaps', 'gone', cm)])
    await t.agent.poll()
    expect((await t.kube.get(cmRef))?.data).toEqual({ a: '1' })
    const removing = '2030-01-01T00:00:00Z'
    await t.setMailbox([...live, { ...entry('v1', 'configmaps', 'gone', cm), removing }])
    const copy = await t.mailboxGet('v1/namespaces/gone/configmaps/cfg')
    expect(copy.body.metadata.deletionTimestamp).toBe(removing)
    const r = await t.agent.poll()
    expect(r).toMatchObject({ ok: true, pruned: 1, removed: 1 })
    expect(await t.kube.get(cmRef)).toBeUndefined()
    const key = { group: '', resource: 'configmaps', namespace: 'gone', name: 'cfg' }
    const state = (await t.projections.getCopyStates(t.spaceId, [key])).get('/configmaps/gone/cfg')
    expect(state).toMatchObject({ uid: copy.body.metadata.uid, gone: true })
    expect((await t.agent.poll()).removed ?? 0).toBe(0)
  })
})
