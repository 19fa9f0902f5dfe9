/**
 * The untimed start of a propagation run: the workload Workspace, the namespace `edge` and the
 * EdgePlacement that sends it to this run's Locations, then the where step for the placement and
 * the translate step for every mailbox through `POST /hooks/<step>` (fan-out-hooks.ts), checked
 * until every mailbox's manifest holds the namespace. Also the timed part's own hook drive: the
 * translate keys a write in the workload space wakes (the mailboxes of its space's slices), as
 * the relay sends them.
 */

import {
  EDGE_NAMESPACE,
  EDGE_PLACEMENT,
  edgeNamespace,
  edgePlacement,
  edgeWorkload,
} from './edge-objects.ts'
import type { EdgeDeps, EdgeOptions } from './edge-types.ts'
import { incomplete, type Mailbox, namespaceKey } from './fan-out-check.ts'
import { driveHook, type HookOutcome } from './fan-out-hooks.ts'
import { edgePath, namespacesPath, workspace, workspacesPath } from './fan-out-objects.ts'

const settled = (o: HookOutcome) => o.outcome !== 'no mailbox yet'

const specCluster = (o: unknown) =>
  String((o as { spec?: { cluster?: unknown } } | undefined)?.spec?.cluster ?? '')

/** Runs translate for every mailbox, as the relay would after a write in the workload space. */
export function translateAll(
  deps: EdgeDeps,
  opts: EdgeOptions,
  mailboxes: readonly Mailbox[]
): Promise<unknown> {
  return driveHook(
    deps.hub,
    'translate',
    mailboxes.map((m) => m.key),
    { batch: opts.batch, calls: opts.calls, settled }
  )
}

/** Creates the workload and its placement and drives them into every mailbox; its space path. */
export async function placeWorkload(
  deps: EdgeDeps,
  opts: EdgeOptions,
  agents: number,
  mailboxes: readonly Mailbox[]
): Promise<string> {
  const { hub } = deps
  const ws = await hub.call('POST', workspacesPath('root'), {
    body: workspace(edgeWorkload(agents)),
    expect: 201,
  })
  const path = `root:${edgeWorkload(agents)}`
  await hub.call('POST', namespacesPath(path), { body: edgeNamespace(), expect: 201 })
  await hub.call('POST', edgePath(path, 'edgeplacements'), {
    body: edgePlacement(agents),
    expect: 201,
  })
  await driveHook(hub, 'where', [`${specCluster(ws)}/${EDGE_PLACEMENT}`], { batch: 1, calls: 1 })
  const wants = [{ key: namespaceKey(EDGE_NAMESPACE) }]
  let todo = [...mailboxes]
  for (let round = 1; todo.length > 0; round++) {
    if (round > 5) throw new Error(`edge setup: ${todo.length} mailboxes lack the namespace`)
    await translateAll(deps, opts, todo)
    todo = await incomplete(deps.inspect, todo, wants)
  }
  return path
}
