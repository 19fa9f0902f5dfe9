/**
 * The Worker's configuration, parsed once from its bindings with zod: where DynamoDB is, which
 * table, the log level, the instance label its health routes echo, the admin token secret
 * (optional locally, where `npm start` registers a generated one), the change log's retention, the
 * namespaces built into edge clusters, the edges' staleness threshold, the longest hold of an
 * edge's poll and the edge requests an isolate works on at once before it sheds. Nothing else
 * reads `env` directly. (The change log's settle time is the store's, lib/store/context.ts.)
 */
import { z } from 'zod'
import { WORKER_MAX_IN_FLIGHT } from './edge/admission.ts'
import { HOLD_DEFAULT_SECONDS, HOLD_LIMIT_SECONDS } from './edge/protocol.ts'

export const EnvSchema = z.object({
  DDB_ENDPOINT: z.string().optional(),
  DDB_REGION: z.string().default('us-east-1'),
  TABLE_NAME: z.string().min(3).default('edgeplane'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  ADMIN_TOKEN: z.string().optional(),
  /** Change-log retention for watch, in seconds. */
  WATCH_RETENTION_SECONDS: z.coerce.number().int().positive().default(900),
  /**
   * The namespaces built into every edge cluster, comma-separated (parsed and checked by
   * `parseBuiltinNamespaces` in lib/apis/builtins.ts). Unset means kube's own four: default,
   * kube-system, kube-public, kube-node-lease. Placement never manages these Namespace objects.
   */
  EDGE_BUILTIN_NAMESPACES: z.string().optional(),
  /**
   * Seconds after which an edge whose agent sent no heartbeat is stale, for every view of edges
   * (lib/summarize/liveness.ts). Unset: 180, three heartbeats of a deployed agent. Only for agents
   * that beat at least three times within it (their `--heartbeat-interval`): the local stack's
   * EDGEPLANE_STALE_AFTER sets both.
   */
  EDGE_STALE_AFTER_SECONDS: z.coerce.number().int().min(3).max(86_400).optional(),
  /**
   * The longest hold granted to an agent's held desired-state poll (`Prefer: wait=N`,
   * functions/edge-api/desired-hold.ts), seconds: 0 turns holding off; at most 370, under the
   * 400 s after which Cloudflare closes an idle client connection (a higher value is refused).
   */
  EDGE_HOLD_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(HOLD_LIMIT_SECONDS)
    .default(HOLD_DEFAULT_SECONDS),
  /**
   * Edge API requests (desired-state polls, reports) one isolate works on at once before it
   * sheds the next with 429 and a jittered Retry-After (lib/edge/admission.ts); a held poll parked
   * on its bell does not count while it waits. 0 turns shedding off.
   */
  EDGE_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(WORKER_MAX_IN_FLIGHT),
  /** Least seconds between two flushes of an isolate's metric deltas to the store. */
  METRICS_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Subrequests one invocation may make (lib/budget/limits.ts; 10,000 on newer paid accounts). */
  SUBREQUEST_BUDGET: z.coerce.number().int().min(50).max(100_000).default(1000),
  /** `strict` fails a subrequest past the budget (the local stack); `degrade` logs it. */
  BUDGET_MODE: z.enum(['strict', 'degrade']).default('degrade'),
  /**
   * A label the health routes (/healthz, /livez, /readyz) answer in the `Edgeplane-Instance`
   * header, so whoever started this Worker can tell it from another answering on the same port
   * (the local stack sets a random one per start). Unset: no header.
   */
  INSTANCE_ID: z.string().min(1).max(200).optional(),
})

export type Config = z.infer<typeof EnvSchema>

/**
 * The Worker's bindings as wrangler passes them: the variables (all strings) and the held polls'
 * bell, a Durable Object namespace (functions/mailbox-bell.ts; without it polls are not held).
 */
export type Env = Partial<Record<keyof Config, string>> & { MAILBOX_BELL?: DurableObjectNamespace }

export function readConfig(env: Env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success)
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
    )
  return parsed.data
}
