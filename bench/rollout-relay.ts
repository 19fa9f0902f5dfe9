/**
 * The relay's answer to a Rollout's status write, for the rollout phase (rollout-waves.ts): which
 * translate keys the relay wakes, worked out by the relay's own mapping (lib/relay/rollout-keys.ts)
 * from a slice index and a Rollout index fed, as the relay's watches would feed them, with the
 * workload space's slices and the inventory's Locations (read once, untimed) and then each Rollout
 * the bench reads back after a rollout hook call. So the bench translates exactly the mailboxes
 * the relay would send, and a change to that mapping shows in its figures.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../lib/kube/types.ts'
import { placementOfSlice } from '../lib/placement/slice-owner.ts'
import { createRolloutIndex, rolloutKeys } from '../lib/relay/rollout-keys.ts'
import {
  createSliceIndex,
  destinationsOfSlice,
  mailboxesOfSlice,
} from '../lib/relay/slice-index.ts'
import { TRANSLATE_STEP, translate } from '../lib/relay/step-keys.ts'
import { edgePath } from './fan-out-objects.ts'
import type { HubClient } from './hub-client.ts'

const ROLLOUTS = { group: 'edge.kcp.io', resource: 'rollouts' }
const LOCATIONS = { group: 'edge.kcp.io', resource: 'locations' }

export type RelayView = {
  /** The mailboxes the relay wakes for this read of the Rollout (sorted; none the first time). */
  woken(rollout: KubeObject): string[]
}

type Listed = { items?: KubeObject[] }

/** `obj` with its space annotation, as the relay's watch events carry it. */
function inSpace(obj: KubeObject, space: string): KubeObject {
  const annotations = { ...(obj.metadata.annotations ?? {}), [CLUSTER_ANNOTATION]: space }
  return { ...obj, metadata: { ...obj.metadata, annotations } }
}

export async function relayView(
  hub: HubClient,
  at: { workload: { path: string; id: string }; inventory: { path: string; id: string } },
  rollout: KubeObject
): Promise<RelayView> {
  const index = createSliceIndex()
  const rollouts = createRolloutIndex()
  const deps = {
    rollouts,
    mailboxesOfSpace: (space: string) => index.ofSpace(space),
    destinationsOfSpace: (space: string) => index.destinationsOfSpace(space),
    translate,
  }
  const slices = (await hub.call(
    'GET',
    edgePath(at.workload.path, 'singleplacementslices')
  )) as Listed
  for (const s of slices.items ?? []) {
    const slice = inSpace(s, at.workload.id)
    index.set(at.workload.id, s.metadata.name ?? '', mailboxesOfSlice(slice), {
      locations: destinationsOfSlice(slice),
      placement: placementOfSlice(slice),
    })
  }
  const locations = (await hub.call('GET', edgePath(at.inventory.path, 'locations'))) as Listed
  for (const l of locations.items ?? [])
    rolloutKeys(LOCATIONS, 'ADDED', inSpace(l, at.inventory.id), deps)
  rolloutKeys(ROLLOUTS, 'ADDED', inSpace(rollout, at.workload.id), deps)
  return {
    woken: (r) =>
      rolloutKeys(ROLLOUTS, 'MODIFIED', inSpace(r, at.workload.id), deps)
        .filter((k) => k.step === TRANSLATE_STEP)
        .map((k) => k.key),
  }
}
