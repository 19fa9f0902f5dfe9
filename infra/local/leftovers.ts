/**
 * Cleans up after a start program that died without stopping (SIGKILL, a crash): its stack.json
 * is still there, and the wrangler process group it recorded may still run and hold the port, as
 * may its watch relay (which stops by itself within a second of losing its parent, but may still
 * be saving cursors), its simulated edges and their agents. Called after the data-folder lock is taken (so that program is known to be
 * gone); stops each group only if its leader still looks like what it was (a reused pid is left
 * alone), then forgets the stale stack.json.
 */
import { readFileSync } from 'node:fs'
import type { Logger } from '../../lib/log.ts'
import { groupAlive, stopGroup } from './process-group.ts'
import { bundleName } from './program-bundles.ts'
import { readStackInfo, removeStackInfo } from './stack-info.ts'
import { EDGE_AGENT_MAIN, EDGE_SIM_MAIN, RELAY_MAIN } from './supervise.ts'

function commandLineHas(pid: number, text: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)
  } catch {
    return false
  }
}

/** Returns the pid of the wrangler group that was stopped, if any. */
export async function reapLeftovers(
  stackInfoPath: string,
  log: Logger
): Promise<number | undefined> {
  const stale = await readStackInfo(stackInfoPath)
  if (!stale) return undefined
  await removeStackInfo(stackInfoPath)
  const children: [number | undefined, string, string][] = [
    [stale.relay?.pid, RELAY_MAIN, 'the relay'],
    ...stale.edges.flatMap((e): [number | undefined, string, string][] => [
      [e.agentPid, EDGE_AGENT_MAIN, `the agent of edge ${e.name}`],
      [e.pid, EDGE_SIM_MAIN, `simulated edge ${e.name}`],
    ]),
  ]
  await Promise.all(
    children.map(async ([pid, main, what]) => {
      if (pid === undefined || !groupAlive(pid)) return
      // Run from its source or from its bundle (program-bundles.ts).
      if (!commandLineHas(pid, main) && !commandLineHas(pid, bundleName(main))) return
      log.warn(`stopping ${what} left over by an earlier run`, { pid })
      await stopGroup(pid, 5000)
    })
  )
  const pid = stale.wrangler.pid
  if (!groupAlive(pid) || !commandLineHas(pid, 'wrangler')) return undefined
  log.warn('stopping wrangler left over by an earlier run', { pid, previousOwner: stale.pid })
  await stopGroup(pid, 5000)
  return pid
}
