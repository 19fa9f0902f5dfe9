/**
 * Cleans up after a start program that died without stopping (SIGKILL, a crash): its stack.json
 * is still there, and the wrangler process group it recorded may still run and hold the port, as
 * may its watch relay (which stops by itself within a second of losing its parent, but may still
 * be saving cursors), its simulated edges and their agents. Called after the data-folder lock is
 * taken (so that program is known to be gone); stops each group only if its leader still looks
 * like what it was (a reused pid is left alone), then forgets the stale stack.json.
 * wrangler's group may outlive its leader (wrangler's child and both workerd, holding loopback
 * ports): then only the members that are this stack's are stopped, each by its pid — those whose
 * environment carries the stack's mark (wrangler-process.ts `STACK_MARK`), whose command line
 * names the stack's wrangler folder (`--persist-to`), or whose parent is such a member.
 */
import type { Logger } from '../../lib/log.ts'
import { dataPaths } from './data-dir.ts'
import { commandLine, environHas, procStat } from './proc-read.ts'
import { groupAlive, groupMembers, stopGroup, stopMembers } from './process-group.ts'
import { bundleName } from './program-bundles.ts'
import { readStackInfo, removeStackInfo } from './stack-info.ts'
import { EDGE_AGENT_MAIN, EDGE_SIM_MAIN, RELAY_MAIN } from './supervise.ts'
import { STACK_MARK } from './wrangler-process.ts'

const commandLineHas = (pid: number, text: string) => commandLine(pid).includes(text)

/**
 * The members of group `pgid` that belong to the stack whose wrangler folder is `persistTo`:
 * marked, naming the folder, or children of such a member.
 */
export function stackMembers(pgid: number, persistTo: string): number[] {
  const members = groupMembers(pgid) ?? []
  const ours = new Set(
    members.filter(
      (pid) => environHas(pid, STACK_MARK, persistTo) || commandLineHas(pid, persistTo)
    )
  )
  for (let grew = true; grew; ) {
    grew = false
    for (const pid of members) {
      const ppid = procStat(pid)?.ppid
      if (!ours.has(pid) && ppid !== undefined && ours.has(ppid)) {
        ours.add(pid)
        grew = true
      }
    }
  }
  return members.filter((pid) => ours.has(pid))
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
  if (!groupAlive(pid)) return undefined
  const leader = procStat(pid)
  if (leader && leader.state !== 'Z') {
    if (!commandLineHas(pid, 'wrangler')) return undefined
    log.warn('stopping wrangler left over by an earlier run', { pid, previousOwner: stale.pid })
    await stopGroup(pid, 5000)
    return pid
  }
  // The leader is gone: a group id is not given out again while a member lives, so these are
  // what it started or what joined its group; stop only the stack's.
  const ours = stackMembers(pid, dataPaths(stale.dataDir).wrangler)
  if (!ours.length) return undefined
  log.warn('stopping what wrangler left over by an earlier run (wrangler itself is gone)', {
    pgid: pid,
    pids: ours,
    previousOwner: stale.pid,
  })
  await stopMembers(pid, ours, 5000)
  return pid
}
