/**
 * The propagation runs of one agent count. Untimed: the workload and its placement are driven
 * into the mailboxes (edge-placement.ts). Then the same N mailboxes are served twice, one mode
 * after the other (edge-mode-run.ts): real agents with plain polls every interval (the run as it
 * was before held polls: its row is today's row), then — unless `holdSeconds` is 0 — fresh agents
 * (new state folders) over the same mailboxes with held polls (lib/edge-agent/held-loop.ts). The
 * held run's changes go on from the plain run's markers, so the ConfigMap `prop` it finds is
 * patched, never created again.
 */
import type { EdgeInventory } from './edge-inventory.ts'
import { runMode } from './edge-mode-run.ts'
import { placeWorkload } from './edge-placement.ts'
import type { EdgeDeps, EdgeOptions, PropagationRun } from './edge-types.ts'

export { changeTimeoutMs, START_RATE, startSpreadMs } from './edge-mode-run.ts'

export type PropagationPair = { plain: PropagationRun; held: PropagationRun | null }

export async function runPropagation(
  deps: EdgeDeps,
  opts: EdgeOptions,
  inv: EdgeInventory
): Promise<PropagationPair> {
  const n = inv.members.length
  const t0 = performance.now()
  deps.progress(`edge: placing the workload into ${n} mailboxes (not timed)`)
  const space = await placeWorkload(deps, opts, n, inv.mailboxes)
  const placementMs = performance.now() - t0
  const base = { space, placementMs }
  const plain = await runMode(deps, opts, inv, {
    ...base,
    mode: 'plain',
    firstChange: 0,
    propExists: false,
  })
  if (opts.holdSeconds <= 0) return { plain, held: null }
  const held = await runMode(deps, opts, inv, {
    ...base,
    mode: 'held',
    firstChange: opts.changes,
    propExists: opts.changes > 0,
  })
  return { plain, held }
}
