/**
 * Process-group helpers for stopping a detached child with everything it started. A group is
 * "alive" while it has a member that is not a zombie: on Linux /proc is read (an orphaned zombie
 * may never be reaped when PID 1 does not reap, and must not make a stop wait forever);
 * elsewhere `kill(-pgid, 0)` decides.
 */
import { readdirSync, readFileSync } from 'node:fs'

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
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(name))
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
