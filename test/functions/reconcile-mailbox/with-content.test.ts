/**
 * A mailbox that holds translated content (a manifest with copies and the SyncerConfig) goes with
 * its SyncTarget: the mailbox Workspace, its space and its manifest, even while the translate step
 * keeps running for that key (it must not write the manifest of a mailbox that is going).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS, ESPW, SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { getSpaceByPath } from '../../../lib/hub/spaces.ts'
import {
  CM,
  configMap,
  createWorld,
  IMW,
  NS,
  placement,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'

let w: World

beforeAll(async () => {
  w = await createWorld()
  await w.client.create(WS, NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mb' } })
  await w.client.create(WS, CM, configMap('mb', 'c1'))
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('p', { locationSelectors: [{ matchLabels: { env: 'prod' } }] })
  )
  await w.placeAll()
}, 60_000)
afterAll(async () => {
  await w?.close()
})

describe('a mailbox with content', () => {
  it('goes with its SyncTarget, space and manifest included', async () => {
    const { name, space } = await w.mailbox('e1')
    expect((await w.hub.deps.projections.getManifest(space.id))?.entries.length).toBeGreaterThan(1)
    await w.client.delete(IMW, SYNC_TARGETS, 'e1')
    for (let i = 0; i < 3; i++) {
      await w.placeAll()
      await w.hub.settle()
    }
    expect(await w.client.get(ESPW, WORKSPACES, name)).toBeUndefined()
    expect(await getSpaceByPath(w.hub.deps.kv, `${ESPW}:${name}`)).toBeUndefined()
    expect(await w.hub.deps.projections.getManifest(space.id)).toBeUndefined()
  })
})
