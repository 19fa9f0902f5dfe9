/**
 * Starts the bench's dynalite in a child process (dynalite-child.ts) and reads its CPU time, so
 * the bench reports the hub's CPU and the store's apart, as a deployment would pay them (Workers
 * bill the hub's CPU; DynamoDB's is the service's). The child gets a large heap: at 10,000 edges
 * dynalite holds every item of the run in memory. `close()` ends its stdin, which stops it, and
 * waits for it to exit.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const HEAP_MB = 12_000
/** Linux reports a process's CPU in clock ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10

export type DynaliteProcess = {
  endpoint: string
  /** CPU time the child has used so far (user + system), ms; NaN where /proc is missing. */
  cpuMs(): number
  close(): Promise<void>
}

/** utime + stime of a process from /proc/<pid>/stat, ms. */
export function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name, field 2, may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return Number.NaN
  }
}

export function startDynaliteProcess(): Promise<DynaliteProcess> {
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_MB}`,
      '--experimental-strip-types',
      join(HERE, 'dynalite-child.ts'),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] }
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    child.stdin?.end()
    await exited
  }
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (d: Buffer) => {
      out += d.toString()
      const line = out.indexOf('\n')
      if (line < 0) return
      child.stdout?.off('data', onData)
      const { endpoint } = JSON.parse(out.slice(0, line)) as { endpoint: string }
      const pid = child.pid ?? 0
      resolve({ endpoint, cpuMs: () => procCpuMs(pid), close })
    }
    child.stdout?.on('data', onData)
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`dynalite exited with ${code} before it listened`))
    )
  })
}
