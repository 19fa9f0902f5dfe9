/**
 * The standard `process_*` series (the names Prometheus' own clients use) from readings taken by
 * the runtime, one family per reading present: `process_start_time_seconds`,
 * `process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_open_fds` and
 * `process_max_fds`. The edge agent and the relay read all of them from Node
 * (infra/process-readings.ts); the Worker only its isolate's start (lib/metrics/hub-ops.ts): its
 * CPU time and memory are not measurable from inside (the clock does not advance while code runs,
 * and `process.memoryUsage` under nodejs_compat is a stand-in), so it leaves them out rather than
 * report zeros.
 */
import type { MetricFamily, MetricType } from './registry.ts'

export type ProcessReadings = {
  /** When the process (the Worker: the isolate) started, in seconds since the epoch. */
  startTimeSeconds: number
  /** User plus system CPU time spent, in seconds. */
  cpuSeconds?: number
  residentMemoryBytes?: number
  openFds?: number
  maxFds?: number
}

type Spec = { key: keyof ProcessReadings; name: string; type: MetricType; help: string }

const SPECS: readonly Spec[] = [
  {
    key: 'startTimeSeconds',
    name: 'process_start_time_seconds',
    type: 'gauge',
    help: 'Start time of the process since unix epoch in seconds.',
  },
  {
    key: 'cpuSeconds',
    name: 'process_cpu_seconds_total',
    type: 'counter',
    help: 'Total user and system CPU time spent in seconds.',
  },
  {
    key: 'residentMemoryBytes',
    name: 'process_resident_memory_bytes',
    type: 'gauge',
    help: 'Resident memory size in bytes.',
  },
  {
    key: 'openFds',
    name: 'process_open_fds',
    type: 'gauge',
    help: 'Number of open file descriptors.',
  },
  {
    key: 'maxFds',
    name: 'process_max_fds',
    type: 'gauge',
    help: 'Maximum number of open file descriptors.',
  },
]

/** One family per reading given (a reading that is not a finite number is left out). */
export function processFamilies(r: ProcessReadings, help: Partial<Record<string, string>> = {}) {
  const out: MetricFamily[] = []
  for (const s of SPECS) {
    const value = r[s.key]
    if (typeof value !== 'number' || !Number.isFinite(value)) continue
    out.push({
      name: s.name,
      help: help[s.name] ?? s.help,
      type: s.type,
      series: new Map([['[]', { labels: {}, value }]]),
    })
  }
  return out
}
