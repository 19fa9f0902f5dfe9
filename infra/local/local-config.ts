/**
 * The local stack's configuration, read once from the environment with zod: the hub port
 * (EDGEPLANE_PORT, default 8787), the data folder (EDGEPLANE_DATA, default `.edgeplane/`, made
 * absolute against the working directory), the DynamoDB table name, the Worker's log level and
 * whether to run the watch relay (EDGEPLANE_RELAY, `on` by default; `off` for tests that drive
 * the steps themselves), the simulated edge clusters (EDGEPLANE_EDGES, edges-config.ts: unset is
 * the default two, empty is none; the failures they are told to have, EDGEPLANE_EDGE_FAULTS,
 * edge-faults-config.ts), their agents' poll interval (EDGEPLANE_POLL_INTERVAL,
 * seconds) and their limit for each request to the center (EDGEPLANE_AGENT_TIMEOUT, seconds,
 * default 30 like a deployed agent's), how often a dead hub is restarted before the stack gives up
 * (EDGEPLANE_HUB_RESTARTS), the local cron ticker's period (EDGEPLANE_CRON_PERIOD, seconds,
 * default 60 like the deployed cron), the edges' staleness threshold (EDGEPLANE_STALE_AFTER, seconds:
 * the Worker's and the relay's EDGE_STALE_AFTER_SECONDS, and its agents beat three times within
 * it; unset, the deployed default of 180 with a beat a minute), the longest hold the Worker grants
 * an edge's poll (EDGEPLANE_HOLD_MAX, seconds, 0 to 370: its EDGE_HOLD_MAX_SECONDS; unset, its
 * default of 300; 0 turns holding off), the hold the agents ask (EDGEPLANE_HOLD_SECONDS: their
 * `--hold-seconds`; unset, their default of 300; 0 makes them plain pollers) and whether the Worker, relay, edges and agents run from bundles
 * (EDGEPLANE_PROGRAMS, `bundles` by default, program-bundles.ts; `source` for their sources). Nothing else in infra/local reads `process.env` for these.
 */
import { resolve } from 'node:path'
import { z } from 'zod'
import { HOLD_LIMIT_SECONDS } from '../../lib/edge/protocol.ts'
import { withEdgeFaults } from './edge-faults-config.ts'
import { type EdgeSpec, parseEdges } from './edges-config.ts'

export const LocalEnvSchema = z.object({
  EDGEPLANE_PORT: z.coerce.number().int().min(1).max(65535).default(8787),
  EDGEPLANE_DATA: z.string().min(1).default('.edgeplane'),
  TABLE_NAME: z.string().min(3).max(255).default('edgeplane'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  EDGEPLANE_RELAY: z.enum(['on', 'off']).default('on'),
  EDGEPLANE_POLL_INTERVAL: z.coerce.number().int().min(1).max(3600).default(2),
  EDGEPLANE_HUB_RESTARTS: z.coerce.number().int().min(0).max(100).default(3),
  EDGEPLANE_CRON_PERIOD: z.coerce.number().int().min(1).max(3600).default(60),
  EDGEPLANE_AGENT_TIMEOUT: z.coerce.number().int().min(1).max(120).default(30),
  EDGEPLANE_STALE_AFTER: z.coerce.number().int().min(3).max(86_400).optional(),
  EDGEPLANE_HOLD_MAX: z.coerce.number().int().min(0).max(HOLD_LIMIT_SECONDS).optional(),
  EDGEPLANE_HOLD_SECONDS: z.coerce.number().int().min(0).max(HOLD_LIMIT_SECONDS).optional(),
  EDGEPLANE_PROGRAMS: z.enum(['bundles', 'source']).default('bundles'),
})

export type LocalConfig = {
  /** Port of the hub (wrangler dev) on 127.0.0.1. */
  port: number
  /** Absolute path of the data folder. */
  dataDir: string
  tableName: string
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  /** Run the watch relay (EDGEPLANE_RELAY=on). */
  relay: boolean
  /** The simulated edge clusters to run (EDGEPLANE_EDGES). */
  edges: EdgeSpec[]
  /** Seconds between the simulated edges' agent polls. */
  pollIntervalSeconds: number
  /** The simulated edges' agents' limit for each request to the center (`--center-timeout`). */
  agentTimeoutSeconds?: number
  /** Restarts in a row of a dead hub (wrangler or workerd) before the stack ends (default 3). */
  hubRestarts?: number
  /** Seconds between the local cron ticks (default 60, the deployed cron's every minute). */
  cronPeriodSeconds?: number
  /** The edges' staleness threshold in seconds (absent: the Worker's default, 180). */
  staleAfterSeconds?: number
  /** The Worker's longest hold of an edge's poll, seconds (absent: its default, 300). */
  holdMaxSeconds?: number
  /** The hold the simulated edges' agents ask, seconds (`--hold-seconds`; absent: 300). */
  holdSeconds?: number
  /** How the Worker, relay, edges and agents run: from cached bundles (default) or their sources. */
  programs?: 'bundles' | 'source'
}

/** Parses the environment; throws one readable error listing every bad variable. */
export function readLocalConfig(env: Record<string, string | undefined>, cwd: string): LocalConfig {
  const picked = Object.fromEntries(
    Object.keys(LocalEnvSchema.shape)
      .map((k) => [k, env[k]] as const)
      .filter(([, v]) => v !== undefined && v !== '')
  )
  const parsed = LocalEnvSchema.safeParse(picked)
  if (!parsed.success)
    throw new Error(
      `invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
    )
  const c = parsed.data
  // Unlike the others, EDGEPLANE_EDGES set to '' means something: no edges.
  const edges = withEdgeFaults(parseEdges(env.EDGEPLANE_EDGES), env.EDGEPLANE_EDGE_FAULTS)
  return {
    port: c.EDGEPLANE_PORT,
    dataDir: resolve(cwd, c.EDGEPLANE_DATA),
    tableName: c.TABLE_NAME,
    logLevel: c.LOG_LEVEL,
    relay: c.EDGEPLANE_RELAY === 'on',
    edges,
    pollIntervalSeconds: c.EDGEPLANE_POLL_INTERVAL,
    agentTimeoutSeconds: c.EDGEPLANE_AGENT_TIMEOUT,
    hubRestarts: c.EDGEPLANE_HUB_RESTARTS,
    cronPeriodSeconds: c.EDGEPLANE_CRON_PERIOD,
    ...(c.EDGEPLANE_STALE_AFTER ? { staleAfterSeconds: c.EDGEPLANE_STALE_AFTER } : {}),
    ...(c.EDGEPLANE_HOLD_MAX !== undefined ? { holdMaxSeconds: c.EDGEPLANE_HOLD_MAX } : {}),
    ...(c.EDGEPLANE_HOLD_SECONDS !== undefined ? { holdSeconds: c.EDGEPLANE_HOLD_SECONDS } : {}),
    programs: c.EDGEPLANE_PROGRAMS,
  }
}
