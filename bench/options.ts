/**
 * The benchmark's options: what each flag sizes, the defaults, the `--quick` preset and the
 * `--help` text. bench/args.ts parses the command line into these. Data only.
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
  /** Fair-share phase: watches the noisy token asks for (0 leaves the phase out). */
  fairWatches: number
  /** Edge phase: agent counts, one propagation run each. */
  edgeAgents: number[]
  /** Edge phase: agents one process runs; a larger fleet is spread over processes (edge-fleet.ts). */
  agentsPerProcess: number
  /** Edge phase: the agents' poll interval. */
  pollIntervalMs: number
  /** Edge phase: the held-poll runs' `Prefer: wait` (s; 0 leaves held polls out). */
  edgeHoldSeconds: number
  /** Edge phase: timed source writes per propagation run. */
  edgeChanges: number
  /** Edge phase: polls per side and round of the idle throughput run. */
  edgeIdlePolls: number
  /** Edge phase: also count idle polls after the 10 s caches expired. */
  edgeColdCost: boolean
  /** Leaves the edge phase out. */
  skipEdge: boolean
  /** Workers-limits phase: SyncTargets (mailboxes) whose hooks, polls and cron are measured. */
  limitsTargets: number
  /** Leaves the Workers-limits phase out (the per-kind table still covers the other phases). */
  skipLimits: boolean
  /** Leaves out the fair-share run through npm start (the in-process one still runs). */
  skipFairNpmStart: boolean
  /** Hard limit for the whole run; it fails past this. */
  maxSeconds: number
  /** Runs the scale figures (scale.ts) instead of the phases above. */
  scale: boolean
  /** Scale: destination counts, one in-process fan-out run each. */
  scaleEdges: number[]
  /** Scale: ConfigMaps the EdgePlacement selects in the in-process runs. */
  scaleObjects: number
  /** Scale: poll intervals the idle fleet is measured over (after one warm-up interval). */
  scaleIdleIntervals: number
  /** Scale: the held idle fleet's hold (s) after the plain one (held-idle.ts); 0 leaves it out. */
  scaleHoldSeconds: number
  /** Scale: leaves the rollout phase (rollout-phase.ts) out. */
  skipRollout: boolean
  /** Scale: leaves the storm phase (storm.ts) out. */
  skipStorm: boolean
  /** Scale: how long the storm phase stops the center, s. */
  stormOutageSeconds: number
  /** Scale: edges of the run through `npm start`'s stack (0 leaves it out). */
  npmStartEdges: number
  /** Scale: ConfigMaps of the run through `npm start`'s stack. */
  npmStartObjects: number
  /** Scale: real agents of the propagation run through `npm start` (0 leaves it out). */
  npmStartAgents: number
  /** Scale: timed source writes per poll mode of that run. */
  npmStartChanges: number
}

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
  fairWatches: 1500,
  edgeAgents: [100, 1000],
  agentsPerProcess: 2000,
  pollIntervalMs: 15_000,
  edgeHoldSeconds: 300,
  edgeChanges: 3,
  edgeIdlePolls: 2000,
  edgeColdCost: true,
  skipEdge: false,
  limitsTargets: 600,
  skipLimits: false,
  skipFairNpmStart: false,
  maxSeconds: 2700,
  scale: false,
  scaleEdges: [1000, 10_000],
  scaleObjects: 100,
  scaleIdleIntervals: 3,
  scaleHoldSeconds: 300,
  skipRollout: false,
  skipStorm: false,
  stormOutageSeconds: 60,
  npmStartEdges: 1000,
  npmStartObjects: 20,
  npmStartAgents: 20,
  npmStartChanges: 5,
}

export const QUICK_OPTIONS: Partial<BenchOptions> = {
  quick: true,
  fairWatches: 300,
  objects: 80,
  rawOps: 150,
  listOps: 4,
  costSamples: 3,
  watchChanges: 15,
  fanoutTargets: 100,
  fanoutObjects: 20,
  edgeAgents: [10, 50],
  pollIntervalMs: 1000,
  edgeChanges: 2,
  edgeIdlePolls: 300,
  edgeColdCost: false,
  limitsTargets: 150,
  scaleEdges: [100, 300],
  scaleObjects: 20,
  scaleIdleIntervals: 2,
  scaleHoldSeconds: 20,
  npmStartEdges: 50,
  npmStartObjects: 5,
  npmStartAgents: 5,
  npmStartChanges: 3,
}

export const USAGE = `Usage: npm run bench -- [flags]

Benchmarks the edgeplane hub against one in-memory dynalite (a child process) on 127.0.0.1:
raw DynamoDB PutItem/GetItem/Query throughput, hub create/get/list over HTTP (ratios to raw),
DynamoDB requests per hub operation, watch delivery latency, and the fan-out of one
EdgePlacement's objects to many SyncTargets' mailboxes (time to complete, DynamoDB requests and
bodies written per (object, destination), translate throughput as a ratio of raw PutItem), and
the edge API: DynamoDB requests per unchanged desired-state poll, idle polls per second against a
bare 304 endpoint, and propagation latency from a source write to applied-at-edge with many real
agents (each over a small in-memory edge cluster) polling in this process; and per invocation
(hook step, watch, cron, edge poll) the subrequests and CPU ms a Worker would spend.
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
  --fair-watches N        watches one token asks for while another's latency is timed
                          (${DEFAULT_OPTIONS.fairWatches}; --quick: ${QUICK_OPTIONS.fairWatches}; 0: leave the phase out),
                          against the hub in this process and then through npm start's stack
  --skip-fair-npm-start   time the fair share in this process only
  --edge-agents LIST      agent counts of the propagation runs, comma-separated
                          (${DEFAULT_OPTIONS.edgeAgents.join(',')}; --quick: ${QUICK_OPTIONS.edgeAgents?.join(',')})
  --agents-per-process N  agents one process runs; more are spread over child processes
                          (${DEFAULT_OPTIONS.agentsPerProcess}; up to that many run in the hub's process)
  --poll-interval-ms N    the agents' poll interval, ms (${DEFAULT_OPTIONS.pollIntervalMs}: the agent's default;
                          --quick: ${QUICK_OPTIONS.pollIntervalMs})
  --edge-hold-seconds N   held-poll runs beside the plain ones: the agents' Prefer: wait (${DEFAULT_OPTIONS.edgeHoldSeconds},
                          the agent's default; each held run counts an idle window of one hold + 5 s;
                          0 leaves held polls out)
  --edge-changes N        timed source writes per propagation run (${DEFAULT_OPTIONS.edgeChanges}; --quick: ${QUICK_OPTIONS.edgeChanges})
  --edge-idle-polls N     polls per side and round of the idle throughput run (${DEFAULT_OPTIONS.edgeIdlePolls})
  --skip-edge-cold        do not wait ~10 s to count idle polls with expired caches (--quick skips it)
  --skip-edge             leave the edge phase out
  --limits-targets N      mailboxes of the Workers-limits phase (${DEFAULT_OPTIONS.limitsTargets}; --quick: ${QUICK_OPTIONS.limitsTargets})
  --skip-limits           leave the Workers-limits phase out
  --max-seconds N         abort the run after this long (${DEFAULT_OPTIONS.maxSeconds})

Scale (the ten-thousand-edge figures; the other phases are left out):
  --scale                 registration, fan-out and change at each --scale-edges size in process,
                          the idle fleet (every mailbox polled once per --poll-interval-ms by a
                          process of its own: store requests per poll, the center's CPU) on the
                          largest, propagation to real agents at --edge-agents, and registration,
                          fan-out and change through npm start's stack; the last line is one JSON
                          object with a "goals" map (value, target, edges per figure)
  --scale-edges LIST      destination counts (${DEFAULT_OPTIONS.scaleEdges.join(',')}; --quick: ${QUICK_OPTIONS.scaleEdges?.join(',')})
  --scale-objects N       ConfigMaps placed in process (${DEFAULT_OPTIONS.scaleObjects}; --quick: ${QUICK_OPTIONS.scaleObjects})
  --scale-idle-intervals N  poll intervals the idle fleet is measured over (${DEFAULT_OPTIONS.scaleIdleIntervals})
  --scale-hold-seconds N  then the same fleet holding its polls (Prefer: wait=N) for one hold
                          period, side by side with the plain one, and a fleet-wide change answered
                          to every held poll (${DEFAULT_OPTIONS.scaleHoldSeconds}; --quick: ${QUICK_OPTIONS.scaleHoldSeconds}; 0 leaves it out)
  --skip-rollout          leave out the rollout phase (on the largest size: a Rollout in four waves
                          of the fan-out's edges, each wave's promotion timed to its mailboxes,
                          and what the Rollout adds to an idle fleet's costs)
  --skip-storm            leave out the storm phase (on the largest size, after the idle fleet: every
                          mailbox's simulated agent keeping the real agent's backoff and Retry-After,
                          the center stopped, then resumed; recovery per agent, peak request rate,
                          the center's liveness of every edge at the end)
  --storm-outage-seconds N  how long the storm phase stops the center (${DEFAULT_OPTIONS.stormOutageSeconds})
  --npm-start-edges N     edges of the npm start run (${DEFAULT_OPTIONS.npmStartEdges}; --quick: ${QUICK_OPTIONS.npmStartEdges}; 0: none)
  --npm-start-objects N   ConfigMaps of the npm start run (${DEFAULT_OPTIONS.npmStartObjects})
  --npm-start-agents N    real agents of the propagation run through npm start: plain polls every
                          15 s, then held polls (wait=300 s), side by side (${DEFAULT_OPTIONS.npmStartAgents}; --quick: ${QUICK_OPTIONS.npmStartAgents}; 0: none)
  --npm-start-changes N   timed source writes per poll mode of that run (${DEFAULT_OPTIONS.npmStartChanges}; --quick: ${QUICK_OPTIONS.npmStartChanges})
  --skip-npm-start-edges  leave that propagation run out
  --skip-npm-start        leave both npm start runs out

Environment (the npm start run, to find out why a step ran):
  BENCH_LOG_LEVEL=debug   the stack's log level (info): the relay then logs each event's keys
  BENCH_KEEP_DATA=1       keep the stack's data folder (wrangler.log, relay.log) and print its path
In process:
  EDGEPLANE_BENCH_PROFILE=DIR  write a CPU profile of each timed fan-out and change round, the idle
                               fleet's heartbeat window and the held fleet's change to DIR
`
