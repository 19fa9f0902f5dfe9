/**
 * What the agent tells the center of itself with each report (lib/edge/protocol.ts `AgentInfo`):
 * its version — the repository's (package.json, as lib/edge/manifests-image.ts carries it for
 * the image tag), which the bundle inlines, so a process reports the release it was built from —
 * and the poll interval it runs with. An interval the protocol cannot carry (under a millisecond,
 * over a day) makes the agent say nothing of itself rather than have its reports refused.
 */
import { IMAGE_VERSION } from '../edge/manifests-image.ts'
import { type AgentInfo, AgentInfoSchema } from '../edge/protocol.ts'

/** The agent's version: the release this code is. */
export const AGENT_VERSION = IMAGE_VERSION

/** The agent's self-description for a poll interval of `pollIntervalMs`, if the protocol takes it. */
export function agentInfo(pollIntervalMs: number, version = AGENT_VERSION): AgentInfo | undefined {
  const parsed = AgentInfoSchema.safeParse({ version, pollIntervalSeconds: pollIntervalMs / 1000 })
  return parsed.success ? parsed.data : undefined
}
