/**
 * The `process_*` readings of this Node process (lib/metrics/process-families.ts), for the edge
 * agent's and the relay's /metrics: its start (performance.timeOrigin), CPU time
 * (process.cpuUsage), resident memory (process.memoryUsage.rss) and, where /proc shows them
 * (Linux), its open file descriptors and their limit. `processMetrics` is what both programs add
 * to their own families: those readings and edgeplane_build_info.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { buildInfoFamily } from '../lib/metrics/build-info.ts'
import { type ProcessReadings, processFamilies } from '../lib/metrics/process-families.ts'
import type { MetricFamily } from '../lib/metrics/registry.ts'

function openFds(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length
  } catch {
    return undefined
  }
}

/** The soft limit of open files, from /proc/self/limits. */
export function maxFdsOf(limits: string): number | undefined {
  const m = /^Max open files\s+(\d+)/m.exec(limits)
  return m ? Number(m[1]) : undefined
}

function maxFds(): number | undefined {
  try {
    return maxFdsOf(readFileSync('/proc/self/limits', 'utf8'))
  } catch {
    return undefined
  }
}

export function nodeProcessReadings(): ProcessReadings {
  const cpu = process.cpuUsage()
  const fds = openFds()
  const max = maxFds()
  return {
    startTimeSeconds: performance.timeOrigin / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    residentMemoryBytes: process.memoryUsage.rss(),
    ...(fds !== undefined ? { openFds: fds } : {}),
    ...(max !== undefined ? { maxFds: max } : {}),
  }
}

/** `families` with edgeplane_build_info and this process's `process_*` series. */
export function processMetrics(families: Iterable<MetricFamily>): MetricFamily[] {
  return [...families, buildInfoFamily(), ...processFamilies(nodeProcessReadings())]
}
