/**
 * The wire contract between the center's edge API (functions/edge-api/) and the edge agent
 * (infra/edge-agent/, lib/edge-agent/), as zod schemas both sides parse with. The edge always
 * opens the connection. It pulls its mailbox's desired state and pushes reports; both are
 * idempotent, so a retried request is harmless.
 *
 * Desired state — `GET /edge/v1/mailboxes/<mailbox-name>/desired`, with the edge token. The answer
 * names the mailbox manifest's `version` (also the ETag, `"<version>"`). With
 * `If-None-Match: "<version>"` equal to the current one the center answers 304 with no body, after
 * one read. Otherwise the answer holds the complete index of the mailbox's projected copies
 * (`entries`, small) and the bodies of the entries changed since the version the agent named (all
 * bodies when it named none or one the center cannot relate): the agent keeps the bodies it has,
 * replaces changed ones, and treats keys absent from `entries` as removed. An entry marked
 * `removing` is a tombstone: the center wants the copy gone from the edge and waits for the agent
 * to say so (its body is not sent). Bodies are keyed by content hash, so identical copies travel
 * once. Each entry names the workload spaces it comes from (`tenants`), so the edge's own RBAC
 * judges it as theirs.
 *
 * Held polls — the same GET with `If-None-Match` may carry `Prefer: wait=N` (RFC 7240, N whole
 * seconds): the agent lets the center hold the answer up to N seconds while the mailbox does not
 * move. A center that holds answers with `Preference-Applied: wait=M`, M = min(N, its longest
 * hold, EDGE_HOLD_MAX_SECONDS: 300 by default, at most HOLD_LIMIT_SECONDS, under the 400 s after
 * which Cloudflare closes an idle client connection), on every answer to such a poll: at once
 * (200) when the named version is not the current one, as soon as the mailbox's version moves
 * during the hold (200 with the new state), else 304 when the hold ends. A poll without `Prefer`
 * (or with a malformed one) is answered as it always was. An answer without `Preference-Applied`
 * comes from a center that does not hold (older, or holding turned off): the agent then polls on
 * its interval. A 429 or 503 may carry `Retry-After` (seconds or an HTTP date): the agent waits
 * that long (at least a first failure's backoff), whatever failures came before. A center working on its limit of edge
 * requests sheds the next at once (functions/edge-api/admission.ts): 429 TooManyRequests, a kube
 * Status, with a jittered `Retry-After` of 1 to 30 s — a poll, held or not, or a report (its
 * heartbeat goes again with the next poll after that wait).
 *
 * Reports — `POST /edge/v1/mailboxes/<mailbox-name>/reports`: statuses of downsynced objects (only
 * those that changed since the last accepted report), the state of their associated objects,
 * upsynced objects to create/update or delete in the mailbox, problems the agent met (a foreign
 * object in the way), the removing entries the edge no longer has (`removed`), a liveness
 * heartbeat, and who is speaking (`agent`: the agent's version and poll interval, and how its
 * last poll went, optional, which the center records with the heartbeat in the edge's lease). The
 * answer lists what was rejected and why.
 */
import { z } from 'zod'

const name = z.string().min(1).max(253)

/**
 * Identifies one object: group ('' = core), version, resource (lowercase plural), namespace ('' =
 * cluster-scoped), name. The lengths are kube's (a namespace is a DNS label), so a ref always fits
 * a store key.
 */
export const ObjectRefSchema = z.object({
  group: z.string().max(253),
  version: z.string().min(1).max(63),
  resource: z.string().min(1).max(253),
  namespace: z.string().max(63),
  name,
})
export type ObjectRef = z.infer<typeof ObjectRefSchema>

/** One projected copy in the desired state's index. */
export const DesiredEntrySchema = ObjectRefSchema.extend({
  /** Content hash of the body (a key of `bodies`). */
  hash: z.string().min(1),
  /** The copy's metadata.generation in the mailbox: what `observedGeneration` refers to. */
  generation: z.number().int().min(1),
  /** resourceVersion of the manifest write that last changed this copy. */
  rv: z.number().int().min(1),
  /**
   * A tombstone: the copy is leaving this edge. The agent removes what it owns under that key and
   * reports the key in `removed` once it has nothing there (the center then drops the entry).
   */
  removing: z.boolean().optional(),
  /**
   * The ids of the workload spaces the copy comes from (sorted): the agent applies it as each
   * one's tenant identity at the edge (lib/edge-agent/tenant-identity.ts). Absent from centers
   * before it and for copies of unknown origin: the agent applies those as itself.
   */
  tenants: z.array(z.string().min(1).max(63)).optional(),
})
export type DesiredEntry = z.infer<typeof DesiredEntrySchema>

export const DesiredStateSchema = z.object({
  kind: z.literal('DesiredState'),
  mailbox: name,
  /** The manifest version this answer reflects (0 when the mailbox has no content yet). */
  version: z.number().int().min(0),
  /** True when `bodies` holds every entry's body (no usable `If-None-Match`). */
  full: z.boolean(),
  /** Every projected copy of the mailbox, SyncerConfig `the-one` included. */
  entries: z.array(DesiredEntrySchema),
  /** Bodies by hash, for the live entries that changed since the named version (or all). */
  bodies: z.record(z.string(), z.record(z.string(), z.unknown())),
})
export type DesiredState = z.infer<typeof DesiredStateSchema>

/** The state of an object a downsynced one owns at the edge (a Deployment's ReplicaSets and Pods). */
export const AssociatedSchema = z.object({
  kind: z.string().min(1),
  namespace: z.string(),
  name,
  /** e.g. a Pod's phase, "Complete" for a Job's pod. */
  phase: z.string().optional(),
  ready: z.boolean().optional(),
  reason: z.string().optional(),
})
export type Associated = z.infer<typeof AssociatedSchema>

export const StatusReportSchema = ObjectRefSchema.extend({
  /**
   * The mailbox copy's generation the edge object reflects: the agent applied that generation and
   * the edge's controllers have observed it. Becomes `status.observedGeneration` on the copy.
   */
  observedGeneration: z.number().int().min(0),
  /** The edge object's `.status`, as the edge cluster reports it. */
  status: z.record(z.string(), z.unknown()),
  associated: z.array(AssociatedSchema).max(500).optional(),
})
export type StatusReport = z.infer<typeof StatusReportSchema>

export const ProblemSchema = ObjectRefSchema.extend({
  reason: z.enum(['ForeignObject', 'ApplyFailed', 'DeleteFailed']),
  message: z.string().max(2000),
})
export type Problem = z.infer<typeof ProblemSchema>

/** The longest poll interval an agent reports, in seconds (a day). */
export const MAX_POLL_INTERVAL_SECONDS = 86_400

/**
 * Held polls (functions/edge-api/desired-hold.ts): the longest hold a center grants by default
 * (its EDGE_HOLD_MAX_SECONDS), the most it may be set to (Cloudflare closes a client connection
 * idle for 400 s), and the hold an agent asks by default (its `--hold-seconds`).
 */
export const HOLD_DEFAULT_SECONDS = 300
export const HOLD_LIMIT_SECONDS = 370

/** How an agent's last desired-state poll went: `held` (the center applied a hold) or `plain`. */
export const POLL_MODES = ['held', 'plain'] as const
export type PollMode = (typeof POLL_MODES)[number]

/**
 * The agent that sends a report: its release (1 to 64 printable ASCII characters, no spaces,
 * e.g. `0.1.0`) and the interval between its polls (seconds, may be fractional); and, from agents
 * that say it (optional: older ones do not), how its last desired-state poll went (`pollMode`:
 * `held` when the center applied its hold, `plain` for a plain poll — by choice or falling back
 * from a center that does not hold), the hold it asks (`holdSeconds`, whole seconds up to
 * HOLD_LIMIT_SECONDS; 0: plain polls by choice) and when its last desired-state poll was answered
 * (`lastPollAt`, RFC 3339 with its zone, by the agent's clock; any answer, a 304 too). The center
 * refuses a report whose fields are out of bounds; fields added by later agents are dropped, not
 * refused (the object is not strict), so an older center takes a newer agent's reports.
 */
export const AgentInfoSchema = z.object({
  version: z
    .string()
    .regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable ASCII characters without spaces'),
  pollIntervalSeconds: z.number().positive().max(MAX_POLL_INTERVAL_SECONDS),
  pollMode: z.enum(POLL_MODES).optional(),
  holdSeconds: z.number().int().min(0).max(HOLD_LIMIT_SECONDS).optional(),
  lastPollAt: z.iso.datetime({ offset: true }).max(40).optional(),
})
export type AgentInfo = z.infer<typeof AgentInfoSchema>

export const ReportSchema = z.object({
  kind: z.literal('Report'),
  statuses: z.array(StatusReportSchema).max(1000).default([]),
  upsync: z
    .object({
      /** Edge-born objects, at the edge's preferred version, as full objects. */
      apply: z.array(z.record(z.string(), z.unknown())).max(1000).default([]),
      delete: z.array(ObjectRefSchema).max(1000).default([]),
    })
    .default({ apply: [], delete: [] }),
  problems: z.array(ProblemSchema).max(1000).default([]),
  /**
   * Entries marked `removing` the edge no longer has (deleted, never created, or forgotten): the
   * center records them as gone. Repeating one is harmless.
   */
  removed: z.array(ObjectRefSchema).max(1000).optional(),
  /** The agent is alive; the center records it coarsely (SyncTarget lastSyncerHeartbeatTime). */
  heartbeat: z.boolean().default(false),
  /**
   * The sending agent (absent from agents older than it). The center records it only with a
   * heartbeat, in the same write as the lease (lib/edge/lease.ts).
   */
  agent: AgentInfoSchema.optional(),
})
export type Report = z.infer<typeof ReportSchema>

export const ReportResultSchema = z.object({
  kind: z.literal('ReportResult'),
  accepted: z.number().int().min(0),
  rejected: z.array(z.object({ ref: ObjectRefSchema.partial(), message: z.string() })),
})
export type ReportResult = z.infer<typeof ReportResultSchema>

/** Annotation on edge objects the agent created (informational: ownership comes from its record). */
export const DOWNSYNCED_ANNOTATION = 'edge.kcp.io/downsynced'
/** Annotation on mailbox objects an agent upsynced. */
export const UPSYNCED_ANNOTATION = 'edge.kcp.io/upsynced'
/** Path prefix of the edge API. */
export const EDGE_API_PREFIX = '/edge/v1'
/** How often an agent reports at least a heartbeat, even with nothing changed (ms). */
export const HEARTBEAT_MS = 60_000
