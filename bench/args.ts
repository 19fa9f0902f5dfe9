/**
 * The benchmark's command line: `--help`, `--quick` (a short run), `--skip-fanout` and the knobs
 * that size each phase. Explicit flags win over the `--quick` preset whatever their order. Parsing is pure:
 * it returns what to do (help, an error message, or the options) and never exits.
 */

export type BenchOptions = {
  quick: boolean
  /** Objects per hub create phase; also the size of the namespace that is listed. */
  objects: number
  /** Workers of the concurrent runs. */
  concurrency: number
  /** Operations per raw DynamoDB run (PutItem, GetItem; sequential and concurrent each). */
  rawOps: number
  /** List requests per list run. */
  listOps: number
  /** Page size of the limited list. */
  listLimit: number
  /** Approximate JSON size of one item / ConfigMap, in bytes. */
  itemBytes: number
  /** Samples averaged per operation when counting DynamoDB requests. */
  costSamples: number
  /** Changes made while a watch is open. */
  watchChanges: number
  /** Time between two of those changes. */
  watchIntervalMs: number
  /** Change-log settle times to measure watch latency with, one hub each. */
  watchSettleMs: number[]
  /** Fan-out phase: SyncTargets (destinations) the EdgePlacement reaches. */
  fanoutTargets: number
  /** Fan-out phase: ConfigMaps the EdgePlacement selects. */
  fanoutObjects: number
  /** Fan-out phase: mailbox keys per translate hook call (the hook takes at most 500). */
  fanoutBatch: number
  /** Fan-out phase: translate hook calls in flight at once. */
  fanoutCalls: number
  /** Leaves the fan-out phase out. */
  skipFanout: boolean
  /** Hard limit for the whole run; it fails past this. */
  maxSeconds: number
}

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; options: BenchOptions }

export const DEFAULT_OPTIONS: BenchOptions = {
  quick: false,
  objects: 200,
  concurrency: 16,
  rawOps: 500,
  listOps: 10,
  listLimit: 50,
  itemBytes: 1024,
  costSamples: 10,
  watchChanges: 60,
  watchIntervalMs: 20,
  watchSettleMs: [250, 0],
  fanoutTargets: 1000,
  fanoutObjects: 100,
  fanoutBatch: 500,
  fanoutCalls: 2,
  skipFanout: false,
  maxSeconds: 600,
}

export const QUICK_OPTIONS: Partial<BenchOptions> = {
  quick: true,
  objects: 80,
  rawOps: 150,
  listOps: 4,
  costSamples: 3,
  watchChanges: 15,
  fanoutTargets: 100,
  fanoutObjects: 20,
}

export const USAGE = `Usage: npm run bench -- [flags]

Benchmarks the edgeplane hub against one in-process, in-memory dynalite on 127.0.0.1:
raw DynamoDB PutItem/GetItem/Query throughput, hub create/get/list over HTTP (ratios to raw),
DynamoDB requests per hub operation, watch delivery latency, and the fan-out of one
EdgePlacement's objects to many SyncTargets' mailboxes (time to complete, DynamoDB requests and
bodies written per (object, destination), translate throughput as a ratio of raw PutItem).
Progress goes to stderr; stdout gets a report and, last, one JSON line with every figure.

Flags:
  --help                  show this text
  --quick                 a short run (fewer objects and samples)
  --objects N             objects per hub create run; size of the listed namespace (${DEFAULT_OPTIONS.objects})
  --concurrency N         workers of the concurrent runs (${DEFAULT_OPTIONS.concurrency})
  --raw-ops N             operations per raw DynamoDB run (${DEFAULT_OPTIONS.rawOps})
  --list-ops N            list requests per list run (${DEFAULT_OPTIONS.listOps})
  --list-limit N          page size of the limited list (${DEFAULT_OPTIONS.listLimit})
  --item-bytes N          approximate size of one item / ConfigMap (${DEFAULT_OPTIONS.itemBytes})
  --cost-samples N        operations averaged when counting DynamoDB requests (${DEFAULT_OPTIONS.costSamples})
  --watch-changes N       changes made while a watch is open (${DEFAULT_OPTIONS.watchChanges})
  --watch-interval-ms N   time between those changes (${DEFAULT_OPTIONS.watchIntervalMs})
  --settle-ms LIST        change-log settle times for the watch runs, comma-separated
                          (${DEFAULT_OPTIONS.watchSettleMs.join(',')}; 1000 is the store's production default)
  --fanout-targets N      SyncTargets the fan-out EdgePlacement reaches (${DEFAULT_OPTIONS.fanoutTargets}; --quick: ${QUICK_OPTIONS.fanoutTargets})
  --fanout-objects N      ConfigMaps it selects (${DEFAULT_OPTIONS.fanoutObjects}; --quick: ${QUICK_OPTIONS.fanoutObjects})
  --fanout-batch N        mailbox keys per translate hook call, at most 500 (${DEFAULT_OPTIONS.fanoutBatch})
  --fanout-calls N        translate hook calls in flight at once (${DEFAULT_OPTIONS.fanoutCalls})
  --skip-fanout           leave the fan-out phase out
  --max-seconds N         abort the run after this long (${DEFAULT_OPTIONS.maxSeconds})
`

type NumberKey = Exclude<keyof BenchOptions, 'quick' | 'skipFanout' | 'watchSettleMs'>

const NUMBER_FLAGS: Record<string, { key: NumberKey; min: number; max: number }> = {
  '--objects': { key: 'objects', min: 1, max: 100_000 },
  '--concurrency': { key: 'concurrency', min: 1, max: 1024 },
  '--raw-ops': { key: 'rawOps', min: 1, max: 1_000_000 },
  '--list-ops': { key: 'listOps', min: 1, max: 100_000 },
  '--list-limit': { key: 'listLimit', min: 1, max: 10_000 },
  '--item-bytes': { key: 'itemBytes', min: 64, max: 300_000 },
  '--cost-samples': { key: 'costSamples', min: 1, max: 10_000 },
  '--watch-changes': { key: 'watchChanges', min: 1, max: 100_000 },
  '--watch-interval-ms': { key: 'watchIntervalMs', min: 0, max: 60_000 },
  '--fanout-targets': { key: 'fanoutTargets', min: 1, max: 100_000 },
  '--fanout-objects': { key: 'fanoutObjects', min: 1, max: 10_000 },
  '--fanout-batch': { key: 'fanoutBatch', min: 1, max: 500 },
  '--fanout-calls': { key: 'fanoutCalls', min: 1, max: 64 },
  '--max-seconds': { key: 'maxSeconds', min: 1, max: 86_400 },
}

function parseInteger(flag: string, raw: string | undefined, min: number, max: number) {
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return `${flag} needs a whole number`
  const value = Number(raw)
  if (value < min || value > max) return `${flag} must be between ${min} and ${max}`
  return value
}

function parseSettle(raw: string | undefined): number[] | string {
  if (raw === undefined) return '--settle-ms needs a comma-separated list of milliseconds'
  const values: number[] = []
  for (const part of raw.split(',')) {
    const v = parseInteger('--settle-ms', part.trim(), 0, 60_000)
    if (typeof v === 'string') return v
    values.push(v)
  }
  return values
}

/** What the command line asks for (flags after `npm run bench --`). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const explicit: Partial<BenchOptions> = {}
  let quick = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg]
    if (flag === '--help' || flag === '-h') return { kind: 'help' }
    if (flag === '--quick' || flag === '--skip-fanout') {
      if (inline !== undefined) return { kind: 'error', message: `${flag} takes no value` }
      if (flag === '--quick') quick = true
      else explicit.skipFanout = true
      continue
    }
    const value = inline ?? argv[++i]
    if (flag === '--settle-ms') {
      const parsed = parseSettle(value)
      if (typeof parsed === 'string') return { kind: 'error', message: parsed }
      explicit.watchSettleMs = parsed
      continue
    }
    const spec = flag === undefined ? undefined : NUMBER_FLAGS[flag]
    if (!spec) return { kind: 'error', message: `unknown argument ${arg}` }
    const parsed = parseInteger(flag!, value, spec.min, spec.max)
    if (typeof parsed === 'string') return { kind: 'error', message: parsed }
    explicit[spec.key] = parsed
  }
  const options = { ...DEFAULT_OPTIONS, ...(quick ? QUICK_OPTIONS : {}), ...explicit }
  return { kind: 'run', options }
}
