/**
 * Cleans up after a start program that died without stopping (SIGKILL, a crash): its stack.json
 * is still there, and the wrangler process group it recorded may still run and hold the port.
 * Called after the data-folder lock is taken (so that program is known to be gone); stops that
 * group only if its leader still looks like wrangler, then forgets the stale stack.json.
 */
import { readFileSync } from 'node:fs'
import type { Logger } from '../../lib/log.ts'
import { groupAlive, stopGroup } from './process-group.ts'
import { readStackInfo, removeStackInfo } from './stack-info.ts'

function looksLikeWrangler(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('wrangler')
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
  const pid = stale.wrangler.pid
  if (!groupAlive(pid) || !looksLikeWrangler(pid)) return undefined
  log.warn('stopping wrangler left over by an earlier run', { pid, previousOwner: stale.pid })
  await stopGroup(pid, 5000)
  return pid
}
