/**
 * CPU time of a process tree, by part, read from /proc (Linux): every descendant of a root pid
 * (npm start's), its user + system time, summed per part its command line names — `worker`
 * (workerd: the Worker, and wrangler's own proxy worker), `relay`, `wrangler` (wrangler's Node
 * process) and `stack` (npm start's own process: dynalite, the TLS front, the supervisor). The
 * difference of two readings is what each part spent in between; a process that exited in between
 * is not counted. Elsewhere than Linux every reading is empty.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export type CpuByPart = Record<string, number>

let ticksPerSecond: number | undefined
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    } catch {
      ticksPerSecond = 100
    }
    if (!(ticksPerSecond > 0)) ticksPerSecond = 100
  }
  return ticksPerSecond
}

type Proc = { pid: number; ppid: number; cpuTicks: number; cmd: string }

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
    return { pid, ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]), cmd }
  } catch {
    return undefined
  }
}

/** The part a process's command line names. */
export function partOf(cmd: string): string {
  if (/workerd/.test(cmd)) return 'worker'
  if (/relay/.test(cmd)) return 'relay'
  if (/wrangler/.test(cmd)) return 'wrangler'
  return 'stack'
}

/** CPU milliseconds so far of `rootPid` and its descendants, per part. */
export function cpuOfTree(rootPid: number): CpuByPart {
  let pids: number[]
  try {
    pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
  } catch {
    return {}
  }
  const procs = new Map<number, Proc>()
  for (const pid of pids) {
    const p = readProc(pid)
    if (p) procs.set(pid, p)
  }
  const inTree = (p: Proc): boolean => {
    for (let at: Proc | undefined = p, hops = 0; at && hops < 64; hops++) {
      if (at.pid === rootPid) return true
      at = procs.get(at.ppid)
    }
    return false
  }
  const out: CpuByPart = {}
  const msPerTick = 1000 / clockTicks()
  for (const p of procs.values()) {
    if (!inTree(p)) continue
    const part = partOf(p.cmd)
    out[part] = (out[part] ?? 0) + p.cpuTicks * msPerTick
  }
  return out
}

/** What each part spent between two readings. */
export function cpuBetween(before: CpuByPart, after: CpuByPart): CpuByPart {
  const out: CpuByPart = {}
  for (const [part, ms] of Object.entries(after)) out[part] = Math.max(0, ms - (before[part] ?? 0))
  return out
}
