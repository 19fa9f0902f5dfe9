/**
 * Phase 6: the edge API and agents. For each agent count (`--edge-agents`) it sets up that many
 * SyncTargets, mailboxes and per-mailbox tokens (edge-inventory.ts, not timed). On the first
 * count's mailboxes, before any agent runs, it measures the idle poll (edge-idle.ts): DynamoDB
 * requests per unchanged poll and polls per second against the real desired endpoint and a bare
 * 304 endpoint. Then, for every count, the propagation run (edge-propagation.ts): real agents
 * polling at `--poll-interval-ms`, source writes timed until applied at every edge — plain polls,
 * then the same mailboxes with held polls (`--edge-hold-seconds`, lib/edge-agent/held-loop.ts).
 */
import { measureIdle } from './edge-idle.ts'
import { setUpEdgeInventory } from './edge-inventory.ts'
import { currentEtag, type PollTarget } from './edge-poll.ts'
import { runPropagation } from './edge-propagation.ts'
import type {
  EdgeDeps,
  EdgeOptions,
  EdgeResults,
  IdleResults,
  PropagationRun,
} from './edge-types.ts'

/** Mailboxes the idle runs poll, round robin (each with its own token). */
export const IDLE_MAILBOXES = 100

export async function runEdge(deps: EdgeDeps, opts: EdgeOptions): Promise<EdgeResults> {
  let idle: IdleResults | undefined
  const propagation: PropagationRun[] = []
  const held: PropagationRun[] = []
  for (const agents of opts.agents) {
    const inv = await setUpEdgeInventory(deps, opts, agents)
    if (!idle) {
      const members = inv.members.slice(0, IDLE_MAILBOXES)
      const targets: PollTarget[] = []
      for (const m of members)
        targets.push({ ...m, etag: await currentEtag(deps.hub.baseUrl, m.mailbox, m.token) })
      deps.progress(`edge idle: polls of ${targets.length} unchanged mailboxes`)
      idle = await measureIdle(deps, targets, {
        samples: opts.costSamples,
        cold: opts.coldCost,
        polls: opts.idlePolls,
        concurrency: opts.concurrency,
      })
    }
    const pair = await runPropagation(deps, opts, inv)
    propagation.push(pair.plain)
    if (pair.held) held.push(pair.held)
  }
  if (!idle) throw new Error('edge: no agent count given')
  return {
    intervalMs: opts.pollIntervalMs,
    itemBytes: opts.itemBytes,
    rawGetPerSec: opts.rawGetPerSec,
    idle,
    propagation,
    held,
  }
}
