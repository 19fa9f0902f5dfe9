/**
 * The edge agent's metrics, counted around its parts rather than inside them: `center()` wraps
 * the center client (desired-state requests by answer, 200 / 304 / error; reports sent or
 * failed) and `poll()` wraps one poll (outcome, duration, objects by apply outcome, owned objects,
 * the time of the last successful poll) and tells the loop's health (agent-health.ts) when a poll
 * starts and ends. infra/edge-agent/main.ts wires them; the registry is served on /metrics.
 * Every series the page promises exists from the start (at 0), so rates work from the first
 * scrape.
 */
import type { MetricsRegistry } from '../metrics/registry.ts'
import type { PollHealth } from './agent-health.ts'
import type { CenterClient, DesiredAnswer } from './center-client.ts'
import type { PollOutcome, PollResult } from './poll-result.ts'

export const AGENT_METRIC = {
  polls: 'edgeplane_agent_polls_total',
  pollResults: 'edgeplane_agent_poll_results_total',
  pollDuration: 'edgeplane_agent_poll_duration_seconds',
  applies: 'edgeplane_agent_applies_total',
  reports: 'edgeplane_agent_reports_total',
  lastSuccess: 'edgeplane_agent_last_successful_poll_timestamp_seconds',
  owned: 'edgeplane_agent_owned_objects',
} as const

const HELP = {
  polls:
    'Desired-state requests to the center, by answer: 200 (new content), 304 (unchanged), error.',
  pollResults: 'Polls by outcome (applied, unchanged, offline, center-error, failed).',
  pollDuration: 'Duration of one poll (request, apply, prune, report), seconds.',
  applies: 'Objects handled by polls, by outcome (created, updated, unchanged, pruned, problem).',
  reports: 'Reports posted to the center, by result (sent, error).',
  lastSuccess: 'Unix time of the last successful poll, seconds (0: none yet).',
  owned: 'Objects the agent owns at the edge (it created them and may update and delete them).',
}

const CODES = ['200', '304', 'error'] as const
const OUTCOMES: PollOutcome[] = ['applied', 'unchanged', 'offline', 'center-error', 'failed']
const APPLY_FIELDS = [
  ['created', 'created'],
  ['updated', 'updated'],
  ['unchanged', 'unchanged'],
  ['pruned', 'pruned'],
  ['problem', 'problems'],
] as const

export type AgentMetrics = {
  center(client: CenterClient): CenterClient
  poll(
    poll: (given?: DesiredAnswer) => Promise<PollResult>
  ): (given?: DesiredAnswer) => Promise<PollResult>
}

export type AgentMetricsOptions = {
  registry: MetricsRegistry
  health: PollHealth
  /** How many objects the agent owns now (read after each poll). */
  ownedCount(): number
  now?: () => number
}

export function createAgentMetrics(o: AgentMetricsOptions): AgentMetrics {
  const r = o.registry
  const now = o.now ?? Date.now
  const M = AGENT_METRIC
  for (const code of CODES) r.inc(M.polls, HELP.polls, { code }, 0)
  for (const outcome of OUTCOMES) r.inc(M.pollResults, HELP.pollResults, { outcome }, 0)
  for (const [outcome] of APPLY_FIELDS) r.inc(M.applies, HELP.applies, { outcome }, 0)
  for (const result of ['sent', 'error']) r.inc(M.reports, HELP.reports, { result }, 0)
  r.set(M.lastSuccess, HELP.lastSuccess, {}, 0)
  const setOwned = () => {
    try {
      r.set(M.owned, HELP.owned, {}, o.ownedCount())
    } catch {
      // the count is informative; a failure to read it never breaks a poll
    }
  }
  setOwned()

  const record = (res: PollResult, seconds: number) => {
    r.inc(M.pollResults, HELP.pollResults, { outcome: res.outcome })
    r.observe({ name: M.pollDuration, help: HELP.pollDuration }, {}, seconds)
    for (const [outcome, field] of APPLY_FIELDS)
      if (res[field] > 0) r.inc(M.applies, HELP.applies, { outcome }, res[field])
    if (res.ok) r.set(M.lastSuccess, HELP.lastSuccess, {}, now() / 1000)
    setOwned()
  }

  /** A held poll counted as a desired-state request, by its answer. */
  const counted =
    (hold: NonNullable<CenterClient['holdDesired']>): NonNullable<CenterClient['holdDesired']> =>
    async (version, h) => {
      try {
        const answer = await hold(version, h)
        r.inc(M.polls, HELP.polls, { code: answer.kind === 'unchanged' ? '304' : '200' })
        return answer
      } catch (e) {
        r.inc(M.polls, HELP.polls, { code: 'error' })
        throw e
      }
    }

  return {
    center: (client) => ({
      async getDesired(version) {
        try {
          const answer = await client.getDesired(version)
          r.inc(M.polls, HELP.polls, { code: answer.kind === 'unchanged' ? '304' : '200' })
          return answer
        } catch (e) {
          r.inc(M.polls, HELP.polls, { code: 'error' })
          throw e
        }
      },
      ...(client.holdDesired ? { holdDesired: counted(client.holdDesired.bind(client)) } : {}),
      async postReport(report) {
        try {
          const result = await client.postReport(report)
          r.inc(M.reports, HELP.reports, { result: 'sent' })
          return result
        } catch (e) {
          r.inc(M.reports, HELP.reports, { result: 'error' })
          throw e
        }
      },
    }),
    poll: (poll) => async (given) => {
      const started = now()
      o.health.started()
      try {
        const res = await poll(given)
        record(res, (now() - started) / 1000)
        o.health.finished(res)
        return res
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e)
        const failed = { outcome: 'failed' as const, ok: false, error }
        r.inc(M.pollResults, HELP.pollResults, { outcome: 'failed' })
        r.observe({ name: M.pollDuration, help: HELP.pollDuration }, {}, (now() - started) / 1000)
        o.health.finished(failed)
        throw e
      }
    },
  }
}
