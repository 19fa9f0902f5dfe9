/**
 * The benchmark's command line: `--help`, `--quick` (a short run), `--skip-fanout`, `--skip-edge`,
 * `--skip-limits`, `--scale` (the scale figures instead), `--skip-rollout`, `--skip-storm`, `--skip-npm-start`,
 * `--skip-npm-start-edges` and the knobs that size each phase (the options, defaults and help text are in options.ts).
 * Explicit flags win over the `--quick` preset whatever their order. Parsing is pure: it returns
 * what to do (help, an error message, or the options) and never exits.
 */
import { type BenchOptions, DEFAULT_OPTIONS, QUICK_OPTIONS, USAGE } from './options.ts'

export { type BenchOptions, DEFAULT_OPTIONS, QUICK_OPTIONS, USAGE }

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'run'; options: BenchOptions }

type NumberKey = Exclude<
  keyof BenchOptions,
  | 'quick'
  | 'skipFanout'
  | 'skipEdge'
  | 'skipLimits'
  | 'skipFairNpmStart'
  | 'skipRollout'
  | 'skipStorm'
  | 'edgeColdCost'
  | 'watchSettleMs'
  | 'edgeAgents'
  | 'scale'
  | 'scaleEdges'
>

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
  '--poll-interval-ms': { key: 'pollIntervalMs', min: 100, max: 600_000 },
  '--agents-per-process': { key: 'agentsPerProcess', min: 1, max: 10_000 },
  '--edge-hold-seconds': { key: 'edgeHoldSeconds', min: 0, max: 3600 },
  '--scale-hold-seconds': { key: 'scaleHoldSeconds', min: 0, max: 370 },
  '--edge-changes': { key: 'edgeChanges', min: 1, max: 1000 },
  '--edge-idle-polls': { key: 'edgeIdlePolls', min: 1, max: 1_000_000 },
  '--limits-targets': { key: 'limitsTargets', min: 1, max: 100_000 },
  '--fair-watches': { key: 'fairWatches', min: 0, max: 100_000 },
  '--max-seconds': { key: 'maxSeconds', min: 1, max: 86_400 },
  '--scale-objects': { key: 'scaleObjects', min: 1, max: 10_000 },
  '--scale-idle-intervals': { key: 'scaleIdleIntervals', min: 1, max: 100 },
  '--storm-outage-seconds': { key: 'stormOutageSeconds', min: 1, max: 3600 },
  '--npm-start-edges': { key: 'npmStartEdges', min: 0, max: 100_000 },
  '--npm-start-objects': { key: 'npmStartObjects', min: 1, max: 10_000 },
  '--npm-start-agents': { key: 'npmStartAgents', min: 0, max: 2000 },
  '--npm-start-changes': { key: 'npmStartChanges', min: 1, max: 100 },
}

function parseInteger(flag: string, raw: string | undefined, min: number, max: number) {
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return `${flag} needs a whole number`
  const value = Number(raw)
  if (value < min || value > max) return `${flag} must be between ${min} and ${max}`
  return value
}

const LIST_FLAGS = {
  '--settle-ms': { key: 'watchSettleMs', what: 'milliseconds', min: 0, max: 60_000 },
  '--edge-agents': { key: 'edgeAgents', what: 'agent counts', min: 1, max: 10_000 },
  '--scale-edges': { key: 'scaleEdges', what: 'destination counts', min: 1, max: 100_000 },
} as const

function parseList(flag: keyof typeof LIST_FLAGS, raw: string | undefined): number[] | string {
  const spec = LIST_FLAGS[flag]
  if (raw === undefined) return `${flag} needs a comma-separated list of ${spec.what}`
  const values: number[] = []
  for (const part of raw.split(',')) {
    const v = parseInteger(flag, part.trim(), spec.min, spec.max)
    if (typeof v === 'string') return v
    values.push(v)
  }
  return values
}

/** Sets the value of a list or number flag into `explicit`; an error message when it is bad. */
function parseValue(
  explicit: Partial<BenchOptions>,
  arg: string,
  flag: string | undefined,
  value: string | undefined
): string | undefined {
  if (flag === '--settle-ms' || flag === '--edge-agents' || flag === '--scale-edges') {
    const parsed = parseList(flag, value)
    if (typeof parsed === 'string') return parsed
    explicit[LIST_FLAGS[flag].key] = parsed
    return undefined
  }
  const spec = flag === undefined ? undefined : NUMBER_FLAGS[flag]
  if (!spec || flag === undefined) return `unknown argument ${arg}`
  const parsed = parseInteger(flag, value, spec.min, spec.max)
  if (typeof parsed === 'string') return parsed
  explicit[spec.key] = parsed
  return undefined
}

/** Flags without a value, and what each sets (`--quick` picks the preset). */
const SWITCHES: Record<string, Partial<BenchOptions>> = {
  '--quick': {},
  '--skip-fanout': { skipFanout: true },
  '--skip-edge': { skipEdge: true },
  '--skip-limits': { skipLimits: true },
  '--skip-fair-npm-start': { skipFairNpmStart: true },
  '--skip-edge-cold': { edgeColdCost: false },
  '--scale': { scale: true },
  '--skip-npm-start': { npmStartEdges: 0, npmStartAgents: 0 },
  '--skip-npm-start-edges': { npmStartAgents: 0 },
  '--skip-rollout': { skipRollout: true },
  '--skip-storm': { skipStorm: true },
}

/** What the command line asks for (flags after `npm run bench --`). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const explicit: Partial<BenchOptions> = {}
  let quick = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg]
    if (flag === '--help' || flag === '-h') return { kind: 'help' }
    if (flag !== undefined && Object.hasOwn(SWITCHES, flag)) {
      if (inline !== undefined) return { kind: 'error', message: `${flag} takes no value` }
      if (flag === '--quick') quick = true
      else Object.assign(explicit, SWITCHES[flag])
      continue
    }
    const problem = parseValue(explicit, arg, flag, inline ?? argv[++i])
    if (problem !== undefined) return { kind: 'error', message: problem }
  }
  const options = { ...DEFAULT_OPTIONS, ...(quick ? QUICK_OPTIONS : {}), ...explicit }
  return { kind: 'run', options }
}
