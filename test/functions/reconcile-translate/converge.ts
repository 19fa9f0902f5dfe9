/**
 * What the translate step's in-process tests share: running every controller over all its keys
 * until the world settles (two passes: the second sees what the first wrote), failing on the
 * first key that fails, and the path of a SyncTarget's mailbox space.
 */
import { ESPW, SYNC_TARGETS } from '../../../lib/apis/gvr.ts'
import type { HubClient } from '../../../lib/hub/client.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'

/** Runs every controller over all its keys twice; the outcomes of the last pass. */
export async function convergeAll(controllers: readonly Controller[]): Promise<string[]> {
  let outcomes: string[] = []
  for (let pass = 0; pass < 2; pass++) {
    outcomes = []
    for (const c of controllers) {
      const page = await c.listKeys(undefined, 10_000)
      for (const r of await runKeys(c, page.keys, silentLogger)) {
        if (!r.ok) throw new Error(`${c.name} ${r.key}: ${r.outcome}`)
        outcomes.push(`${c.name} ${r.outcome}`)
      }
    }
  }
  return outcomes
}

/** `root:espw:<mailbox>` of the SyncTarget `name` in the inventory space `inventory`. */
export async function mailboxPathOf(
  client: HubClient,
  inventory: string,
  name: string
): Promise<string> {
  const st = await client.get(inventory, SYNC_TARGETS, name)
  return `${ESPW}:${(await client.space(inventory)).id}-mb-${st?.metadata.uid}`
}
