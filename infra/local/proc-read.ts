/**
 * Reading another process's facts from Linux's /proc: its state, parent and process group
 * (`/proc/<pid>/stat`), its command line and one variable of its environment (readable for a
 * process of the same user only). Each answers undefined (or false) when the process is gone,
 * not ours to read, or there is no /proc: callers treat "cannot tell" as "not ours".
 */
import { readFileSync } from 'node:fs'

export type ProcStat = { pid: number; state: string; ppid: number; pgrp: number }

export function procStat(pid: number): ProcStat | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { pid, state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]) }
}

/** The command line, its arguments joined by spaces; '' when it cannot be read. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

/** Whether the process was started with `name=value` in its environment. */
export function environHas(pid: number, name: string, value: string): boolean {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8')
  } catch {
    return false
  }
  return text.split('\0').includes(`${name}=${value}`)
}
