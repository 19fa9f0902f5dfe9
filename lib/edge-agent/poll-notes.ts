/**
 * How the agent's desired-state polls go, noted around its center client (as agent-metrics.ts
 * counts them) for its reports' `agent` (agent-info.ts): each answered poll — a 200 or a 304 —
 * sets the time of the last poll (`lastPollAt`, the agent's clock) and its mode: `held` when the
 * answer says the center applied the hold (Preference-Applied), `plain` for a plain poll (the
 * plain loop, the held loop's first poll and its polls after a failure) and for a held poll the
 * center did not hold (an older center, or holding off: the held loop falls back). A failed poll
 * changes nothing. `holdSeconds` is the hold the agent asks (0: plain polls by choice). Until the
 * first answer the agent says its version, interval and hold only.
 */
import type { AgentInfo, PollMode } from '../edge/protocol.ts'
import { AGENT_VERSION, agentInfo } from './agent-info.ts'
import type { CenterClient, HoldOptions } from './center-client.ts'

export type PollNotesOptions = {
  pollIntervalMs: number
  /** The hold the agent asks (its `--hold-seconds`; 0 when it polls plainly). */
  holdSeconds: number
  version?: string
  now?: () => Date
}

export type PollNotes = {
  /** `client` with its desired-state answers noted. */
  center(client: CenterClient): CenterClient
  /** What the agent says of itself now (undefined when the protocol cannot carry its interval). */
  info(): AgentInfo | undefined
}

export function createPollNotes(o: PollNotesOptions): PollNotes {
  const now = o.now ?? (() => new Date())
  let last: { pollMode: PollMode; lastPollAt: Date } | undefined
  const note = (pollMode: PollMode) => {
    last = { pollMode, lastPollAt: now() }
  }
  return {
    center(client) {
      const hold = client.holdDesired?.bind(client)
      return {
        async getDesired(version) {
          const answer = await client.getDesired(version)
          note('plain')
          return answer
        },
        ...(hold
          ? {
              async holdDesired(version: number, h: HoldOptions) {
                const answer = await hold(version, h)
                note(answer.heldSeconds === undefined ? 'plain' : 'held')
                return answer
              },
            }
          : {}),
        postReport: (report) => client.postReport(report),
      }
    },
    info: () =>
      agentInfo(o.pollIntervalMs, o.version ?? AGENT_VERSION, {
        holdSeconds: o.holdSeconds,
        ...last,
      }),
  }
}
