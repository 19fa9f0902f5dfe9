/**
 * What the agent tells the center of itself with each report (lib/edge/protocol.ts `AgentInfo`):
 * its version — the repository's (package.json, as lib/edge/manifests-image.ts carries it for
 * the image tag), which the bundle inlines, so a process reports the release it was built from —
 * the poll interval it runs with and, once it has polled, how its last poll went (poll-notes.ts
 * notes it). An interval the protocol cannot carry (under a millisecond, over a day) makes the
 * agent say nothing of itself rather than have its reports refused; a poll fact it cannot carry
 * (a hold out of bounds, a clock past year 9999) is left unsaid, the rest said.
 */
import { IMAGE_VERSION } from '../edge/manifests-image.ts'
import { type AgentInfo, AgentInfoSchema, type PollMode } from '../edge/protocol.ts'

/** The agent's version: the release this code is. */
export const AGENT_VERSION = IMAGE_VERSION

/** How the agent polls and its last poll went (any of it unknown yet: absent). */
export type PollFacts = { pollMode?: PollMode; holdSeconds?: number; lastPollAt?: Date }

/** The facts the protocol takes, as AgentInfo fields. */
function pollFields(p: PollFacts): Partial<AgentInfo> {
  const shape = AgentInfoSchema.shape
  const at = p.lastPollAt && Number.isFinite(p.lastPollAt.getTime()) ? p.lastPollAt : undefined
  const fields = {
    pollMode: shape.pollMode.safeParse(p.pollMode),
    holdSeconds: shape.holdSeconds.safeParse(p.holdSeconds),
    lastPollAt: shape.lastPollAt.safeParse(at?.toISOString()),
  }
  return Object.fromEntries(
    Object.entries(fields).flatMap(([k, r]) =>
      r.success && r.data !== undefined ? [[k, r.data]] : []
    )
  )
}

/**
 * The agent's self-description for a poll interval of `pollIntervalMs`, with what `poll` tells of
 * its polls, if the protocol takes it.
 */
export function agentInfo(
  pollIntervalMs: number,
  version = AGENT_VERSION,
  poll: PollFacts = {}
): AgentInfo | undefined {
  const parsed = AgentInfoSchema.safeParse({ version, pollIntervalSeconds: pollIntervalMs / 1000 })
  return parsed.success ? { ...parsed.data, ...pollFields(poll) } : undefined
}
