/**
 * The tenancy a fresh local stack starts with (lib/tenancy/policy.ts): the first `npm start` on an
 * empty data folder, when it creates the edges' inventory space, also creates the Inventory
 * `imw-1` (so only `root:imw-1`'s SyncTargets are edges: a SyncTarget a tenant makes in its own
 * space is inert) and the PlacementGrant `local` (every workload space, `root` and `root:*`, may
 * place onto every Location of `root:imw-1`, with no trust scope, so no two spaces' objects are
 * merged at an edge, and no privileged resources). An administrator narrows it with kubectl (README,
 * "Tenancy: onboarding a second team"); later starts never write it again, and a data folder an earlier
 * release wrote (no tenancy objects) stays single-team until its administrator says otherwise.
 */
import { GRANT_API_VERSION } from '../../lib/apis/grants.ts'
import { failureOf, type Remote } from '../../lib/remote/remote-client.ts'

const BASE = `/clusters/root/apis/${GRANT_API_VERSION}`

async function create(call: Remote, resource: string, body: object): Promise<void> {
  const res = await call.send(`${BASE}/${resource}`, {
    method: 'POST',
    accept: 'application/json',
    body,
  })
  if (res.ok || res.status === 409) await res.body?.cancel()
  else throw await failureOf(res, `create ${resource}`)
}

/** Creates the fresh stack's Inventory and PlacementGrant for `inventory` (a space path). */
export async function createLocalTenancy(call: Remote, inventory: string): Promise<void> {
  const name = inventory.split(':').at(-1) ?? ''
  await create(call, 'inventories', {
    apiVersion: GRANT_API_VERSION,
    kind: 'Inventory',
    metadata: { name },
    spec: { space: inventory },
  })
  await create(call, 'placementgrants', {
    apiVersion: GRANT_API_VERSION,
    kind: 'PlacementGrant',
    metadata: { name: 'local' },
    spec: { workloadSpaces: ['root', 'root:*'], locations: [{ inventory }] },
  })
}
