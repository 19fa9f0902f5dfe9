/**
 * Whether a SyncTarget makes an edge: only SyncTargets of inventory spaces do
 * (lib/tenancy/policy.ts; an administrator names them with Inventory objects, or every space is
 * one while the hub is single-team). A SyncTarget anywhere else is inert data and says so in its
 * status: condition `Inventory` False, reason `NotInventorySpace`, applied by the mailbox step
 * (field manager `edgeplane-mailbox`, the condition's one writer) and given up once its space
 * becomes an inventory space — so an ordinary edge's SyncTarget costs no status write. The
 * Locations of such a space get the same condition when one of its SyncTargets is run (a Location
 * selects only SyncTargets of its own space, so one in a space with none selects nothing anyway).
 * The policy is read once per batch (`batchTenancy`); a failed read throws, and the run then
 * neither creates nor deletes a mailbox.
 */
import { LOCATIONS, SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { conditionFor } from '../../lib/kube/conditions.ts'
import type { JsonObject, KubeObject } from '../../lib/kube/types.ts'
import { loadTenancy, spacePathOf } from '../../lib/tenancy/load.ts'
import type { TenancyPolicy } from '../../lib/tenancy/policy.ts'

export const INVENTORY_CONDITION = 'Inventory'
const MANAGER = 'edgeplane-mailbox'

/** The tenancy policy of one batch, read when first asked (a failed read is retried by the next ask). */
export function batchTenancy(client: HubClient): () => Promise<TenancyPolicy> {
  let loaded: Promise<TenancyPolicy> | undefined
  return () => {
    loaded ??= loadTenancy(client).catch((e: unknown) => {
      loaded = undefined
      throw e
    })
    return loaded
  }
}

/** The path of the inventory space `spaceId` when it is one; undefined when not (or gone). */
export async function inventoryPath(
  client: HubClient,
  tenancy: () => Promise<TenancyPolicy>,
  spaceId: string
): Promise<{ path: string; inventory: boolean } | undefined> {
  const [policy, path] = await Promise.all([tenancy(), spacePathOf(client, spaceId)])
  return path === undefined ? undefined : { path, inventory: policy.isInventory(path) }
}

const conditionsOf = (st: KubeObject): JsonObject[] => {
  const status = st.status as { conditions?: unknown } | undefined
  return Array.isArray(status?.conditions) ? (status.conditions as JsonObject[]) : []
}

export type InventoryAt = { spaceId: string; path: string; inventory: boolean; now: string }

const messages = {
  synctargets: 'so this SyncTarget is no edge and gets no mailbox',
  locations: 'so no placement can select this Location',
}

const heldBy = (o: KubeObject) => conditionsOf(o).find((c) => c.type === INVENTORY_CONDITION)

/**
 * Applies the Inventory condition of a SyncTarget or a Location: False with why while
 * `inventory` is false; none (given up) once it is true. Writes only when the stored one differs.
 */
async function applyCondition(
  client: HubClient,
  at: InventoryAt,
  kind: { gvr: typeof SYNC_TARGETS; what: keyof typeof messages },
  st: KubeObject
): Promise<boolean> {
  const conditions = conditionsOf(st)
  const held = heldBy(st)
  const want = {
    status: 'False' as const,
    reason: 'NotInventorySpace',
    message:
      `${at.path} is not an inventory space, ${messages[kind.what]}; ` +
      `an administrator makes it one with an Inventory (tenancy.edgeplane.io/v1alpha1) in root`,
  }
  if (at.inventory && !held) return false
  if (!at.inventory && held?.status === want.status && held.reason === want.reason) return false
  const generation = st.metadata.generation ?? 1
  const status: JsonObject = at.inventory
    ? {}
    : {
        conditions: [
          conditionFor(conditions, INVENTORY_CONDITION, want, { generation, now: at.now }),
        ],
      }
  const config: KubeObject = {
    apiVersion: st.apiVersion,
    kind: st.kind,
    metadata: {
      name: st.metadata.name ?? '',
      ...(st.metadata.uid ? { uid: st.metadata.uid } : {}),
    },
    status,
  }
  const done = await client.applyStatus(at.spaceId, kind.gvr, config, { fieldManager: MANAGER })
  return done?.written ?? false
}

/**
 * The SyncTarget's Inventory condition, and — when the SyncTarget is inert or has just stopped
 * being so — that of every Location of its space, which no placement can select either. An
 * ordinary edge's SyncTarget (inventory, no condition held) costs no read.
 */
export async function applyInventoryCondition(
  client: HubClient,
  at: InventoryAt,
  st: KubeObject
): Promise<boolean> {
  const touched = !at.inventory || heldBy(st) !== undefined
  const written = await applyCondition(client, at, { gvr: SYNC_TARGETS, what: 'synctargets' }, st)
  if (!touched) return written
  for (const l of await client.list(at.spaceId, LOCATIONS))
    if (!l.metadata.deletionTimestamp)
      await applyCondition(client, at, { gvr: LOCATIONS, what: 'locations' }, l)
  return written
}
