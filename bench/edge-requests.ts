/**
 * Counts the edge API requests an agent sends, at its center client: every `getDesired` (a plain
 * desired-state poll), `holdDesired` (a held one, counted when sent) and `postReport` is one HTTP
 * request to the hub. The bench reads the tally over an idle window to give requests per agent per
 * hour as measured, not as computed from the intervals. `failed` counts those of any kind that
 * failed (an error answer or none; not one the agent itself aborted): a held request that fails
 * sends its agent back to interval polls, which the propagation figures alone do not say.
 */
import type { CenterClient } from '../lib/edge-agent/center-client.ts'
import type { AgentRequests } from './edge-types.ts'

export const noRequests = (): AgentRequests => ({ desired: 0, held: 0, reports: 0, failed: 0 })

export const requestsTotal = (r: AgentRequests) => r.desired + r.held + r.reports

/** `b - a`, kind by kind. */
export const requestsSince = (a: AgentRequests, b: AgentRequests): AgentRequests => ({
  desired: b.desired - a.desired,
  held: b.held - a.held,
  reports: b.reports - a.reports,
  failed: b.failed - a.failed,
})

/** `a + b`, kind by kind. */
export const addRequests = (a: AgentRequests, b: AgentRequests): AgentRequests => ({
  desired: a.desired + b.desired,
  held: a.held + b.held,
  reports: a.reports + b.reports,
  failed: a.failed + b.failed,
})

/** `client` with each request counted into `tally` as it is sent, and again if it fails. */
export function countingClient(client: CenterClient, tally: AgentRequests): CenterClient {
  const hold = client.holdDesired?.bind(client)
  const counted = <T>(p: Promise<T>, signal?: AbortSignal): Promise<T> =>
    p.catch((e: unknown) => {
      if (!signal?.aborted) tally.failed++
      throw e
    })
  return {
    getDesired(version) {
      tally.desired++
      return counted(client.getDesired(version))
    },
    ...(hold
      ? {
          holdDesired(version, o) {
            tally.held++
            return counted(hold(version, o), o.signal)
          },
        }
      : {}),
    postReport(report) {
      tally.reports++
      return counted(client.postReport(report))
    },
  }
}
