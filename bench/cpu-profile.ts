/**
 * CPU profiles of the bench's timed parts, for finding where a phase's CPU goes: with
 * `EDGEPLANE_BENCH_PROFILE=<folder>` set, `profiled(label, fn)` records the bench process's CPU
 * (the hub and its steps; dynalite runs apart) from the start of `fn` to its end, through
 * node:inspector, and writes `<folder>/<label>-<n>.cpuprofile` (open it in Chrome's DevTools or
 * any speedscope-like viewer). Without the variable it only runs `fn`. The profiler's sampling
 * costs a few percent of CPU, so a profiled run's figures are not the figures to record.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'

const folder = process.env.EDGEPLANE_BENCH_PROFILE ?? ''
let written = 0

export async function profiled<T>(label: string, fn: () => Promise<T>): Promise<T> {
  if (!folder) return fn()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    return await fn()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    session.disconnect()
    mkdirSync(folder, { recursive: true })
    const file = join(folder, `${label.replace(/[^a-z0-9]+/gi, '-')}-${++written}.cpuprofile`)
    writeFileSync(file, JSON.stringify(profile))
    console.error(`[bench] CPU profile of ${label}: ${file}`)
  }
}
