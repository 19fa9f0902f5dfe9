/**
 * Open files of a bench process (Linux /proc): how many it holds, its limit, and raising that limit
 * for a process that is to hold one socket per held poll (10,000 at once and more) — with
 * `prlimit`, which needs the right to raise the hard limit (root, or CAP_SYS_RESOURCE); without
 * it the limit stays and the run says what it had.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/** Open file descriptors of `pid` (default this process), 0 where /proc is absent. */
export function openFiles(pid: number | 'self' = 'self'): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return 0
  }
}

/** The soft limit on open files of `pid`, or Infinity when unknown or unlimited. */
export function openFilesLimit(pid: number | 'self' = 'self'): number {
  try {
    const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const soft = Number(line?.split(/\s{2,}/)[1])
    return Number.isFinite(soft) ? soft : Number.POSITIVE_INFINITY
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** Raises `pid`'s open-file limits to at least `wanted`; the soft limit it has afterwards. */
export function raiseOpenFilesLimit(pid: number, wanted: number): number {
  if (openFilesLimit(pid) >= wanted) return openFilesLimit(pid)
  spawnSync('prlimit', ['--pid', String(pid), `--nofile=${wanted}:${wanted}`], { stdio: 'ignore' })
  return openFilesLimit(pid)
}
