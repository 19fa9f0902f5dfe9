/**
 * Process-group helpers for stopping a detached child with everything it started. A group is
 * "alive" while it has a member that is not a zombie: on Linux /proc is read (an orphaned zombie
 * may never be reaped when PID 1 does not reap, and must not make a stop wait forever);
 * elsewhere `kill(-pgid, 0)` decides. `stopMembers` stops chosen members of a group one by one,
 * for a group whose leader is gone and whose other members may not all be ours.
 */
import { readdirSync } from 'node:fs'
import { procStat } from './proc-read.ts'

/** Pids of the living (non-zombie) members of a process group, from /proc; undefined without /proc. */
export function groupMembers(pgid: number): number[] | undefined {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  const members: number[] = []
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue
    const stat = procStat(Number(name))
    if (stat && stat.state !== 'Z' && stat.pgrp === pgid) members.push(stat.pid)
  }
  return members
}

export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid)
  if (members) return members.length > 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // the group is already gone
  }
}

/** Waits until no living process is left in the group; false if `ms` passed first. */
export async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  return true
}

/**
 * Stops a group: SIGTERM to its leader first, so it can shut down its own children and reap them
 * (orphaned zombies are never reaped where PID 1 does not reap); then SIGTERM to the whole group;
 * then SIGKILL. `graceMs` is split between the first two steps. Resolves when the group is gone.
 */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
  try {
    process.kill(pgid, 'SIGTERM')
  } catch {
    // the leader is gone; the group may not be
  }
  if (await waitGroupGone(pgid, graceMs / 2)) return
  signalGroup(pgid, 'SIGTERM')
  if (await waitGroupGone(pgid, graceMs / 2)) return
  signalGroup(pgid, 'SIGKILL')
  await waitGroupGone(pgid, 5000)
}

/** The pids, of those given, still living members of group `pgid` (a pid reused since is not). */
const stillIn = (pgid: number, pids: number[]) =>
  pids.filter((pid) => {
    const stat = procStat(pid)
    return stat !== undefined && stat.state !== 'Z' && stat.pgrp === pgid
  })

/**
 * Stops the given members of group `pgid`, each by its own pid (the rest of the group is left
 * alone): SIGTERM, then SIGKILL to those still there after `graceMs`. Needs /proc. Resolves when
 * they are gone, or 5 s after the SIGKILL.
 */
export async function stopMembers(pgid: number, pids: number[], graceMs: number): Promise<void> {
  const signal = (list: number[], sig: NodeJS.Signals) => {
    for (const pid of list) {
      try {
        process.kill(pid, sig)
      } catch {
        // already gone
      }
    }
  }
  const waitGone = async (ms: number) => {
    const deadline = Date.now() + ms
    while (stillIn(pgid, pids).length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    return stillIn(pgid, pids)
  }
  signal(stillIn(pgid, pids), 'SIGTERM')
  const left = await waitGone(graceMs)
  if (!left.length) return
  signal(left, 'SIGKILL')
  await waitGone(5000)
}
