/**
 * Helpers for the steps' tests about invalid stored objects: write an object straight to the
 * store (past the API, as an older release or a bug could have stored it), a logger that keeps
 * the warnings, so a test can see what a step reported, and the two-placement world they start from.
 */
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { CLUSTER_ANNOTATION } from '../../../lib/kube/types.ts'
import type { LogFields, Logger } from '../../../lib/log.ts'
import type { TestHub } from '../../helpers/hub.ts'
import { CM, configMap, NS, placement, type World, WS } from './world.ts'

export type Warning = { msg: string; fields: LogFields }

/** A logger that keeps the warnings in `into` and drops everything else. */
export function recorder(into: Warning[], bound: LogFields = {}): Logger {
  return {
    debug: () => {},
    info: () => {},
    warn: (msg, fields = {}) => into.push({ msg, fields: { ...bound, ...fields } }),
    error: () => {},
    child: (fields) => recorder(into, { ...bound, ...fields }),
  }
}

/** The warnings of `step` about invalid stored objects. */
export const invalidReports = (warnings: readonly Warning[], step: string) =>
  warnings.filter((w) => w.msg === 'invalid stored object skipped' && w.fields.step === step)

/**
 * Stores `obj` in space `spaceId` straight through the object store, replacing what is there
 * (cluster-scoped; group and resource as given).
 */
export async function storeRaw(
  hub: TestHub,
  at: { spaceId: string; group: string; resource: string },
  obj: KubeObject
): Promise<void> {
  const key = {
    cluster: at.spaceId,
    group: at.group,
    resource: at.resource,
    namespace: '',
    name: obj.metadata.name ?? '',
  }
  const metadata = {
    creationTimestamp: '2026-01-01T00:00:00Z',
    generation: 1,
    ...obj.metadata,
    annotations: { ...(obj.metadata.annotations ?? {}), [CLUSTER_ANNOTATION]: at.spaceId },
  }
  const old = await hub.store.objects.get(key)
  if (old)
    await hub.store.objects.update(key, { ...obj, metadata }, old.metadata.resourceVersion ?? '')
  else await hub.store.objects.create(key, { ...obj, metadata })
}

const namespace = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { team: name } },
})

/**
 * Seeds `w` for the invalid-stored tests and places it: namespaces `app` and `solo` (label team=
 * their name) with ConfigMaps `app/cfg` and `solo/mine`, and EdgePlacements `good` and `bad` with
 * the given specs. Runs `then` after placing, and answers `bad` as stored after it.
 */
export async function seedGoodAndBad(
  w: World,
  specs: { good: Record<string, unknown>; bad: Record<string, unknown> },
  then: () => Promise<void> = async () => {}
): Promise<KubeObject> {
  for (const ns of ['app', 'solo']) await w.client.create(WS, NS, namespace(ns))
  await w.client.create(WS, CM, configMap('app', 'cfg'))
  await w.client.create(WS, CM, configMap('solo', 'mine'))
  await w.client.create(WS, EDGE_PLACEMENTS, placement('good', specs.good))
  await w.client.create(WS, EDGE_PLACEMENTS, placement('bad', specs.bad))
  await w.placeAll()
  await then()
  const bad = await w.client.get(WS, EDGE_PLACEMENTS, 'bad')
  if (!bad) throw new Error('no placement bad')
  return bad
}

/** Stores the EdgePlacement `obj` of space `spaceId` straight through the object store. */
export const storeRawPlacement = (hub: TestHub, spaceId: string, obj: KubeObject) =>
  storeRaw(hub, { spaceId, group: 'edge.kcp.io', resource: 'edgeplacements' }, obj)

/** Stores the SinglePlacementSlice `obj` of space `spaceId` straight through the object store. */
export const storeRawSlice = (hub: TestHub, spaceId: string, obj: KubeObject) =>
  storeRaw(hub, { spaceId, group: 'edge.kcp.io', resource: 'singleplacementslices' }, obj)
