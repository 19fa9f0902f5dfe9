/**
 * Setup of one propagation run (not timed): N SyncTargets and Locations in their own inventory
 * Workspace, their mailboxes and a first translate pass — fan-out-setup.ts, reused with this run's
 * names (edge-objects.ts) — and one edge credential per mailbox, issued in this process by
 * lib/edge/credentials.ts into the hub's key-value store, as the bootstrap endpoint
 * (functions/edge-api/bootstrap.ts) does. Each mailbox's agent gets its own token.
 */
import { issueEdgeCredential } from '../lib/edge/credentials.ts'
import type { FleetMember } from './edge-agents.ts'
import { edgeEnv, edgeInventory } from './edge-objects.ts'
import type { EdgeDeps, EdgeOptions } from './edge-types.ts'
import type { Mailbox } from './fan-out-check.ts'
import { setUpInventory, tenths } from './fan-out-setup.ts'
import { runLoad } from './load.ts'

export type EdgeInventory = {
  mailboxes: Mailbox[]
  members: FleetMember[]
  inventoryMs: number
  tokensMs: number
}

export async function setUpEdgeInventory(
  deps: EdgeDeps,
  opts: EdgeOptions,
  agents: number
): Promise<EdgeInventory> {
  const { progress } = deps
  progress(`edge setup: ${agents} SyncTargets, Locations and mailboxes (not timed)`)
  const t0 = performance.now()
  const inv = await setUpInventory(deps, {
    targets: agents,
    concurrency: opts.concurrency,
    batch: opts.batch,
    calls: opts.calls,
    inventory: edgeInventory(agents),
    env: edgeEnv(agents),
  })
  const inventoryMs = performance.now() - t0
  const t1 = performance.now()
  const tokens: string[] = new Array(agents)
  let issued = 0
  const tick = tenths(progress, 'edge setup: credentials', agents)
  await runLoad({ count: agents, concurrency: opts.concurrency }, async (i) => {
    const mailbox = inv.mailboxes[i]!.key
    tokens[i] = (await issueEdgeCredential(deps.kv, mailbox)).token
    tick(++issued)
  })
  return {
    mailboxes: inv.mailboxes,
    members: inv.mailboxes.map((m, i) => ({ mailbox: m.key, token: tokens[i]! })),
    inventoryMs,
    tokensMs: performance.now() - t1,
  }
}
