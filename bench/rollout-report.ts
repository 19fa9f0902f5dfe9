/**
 * The rollout phase's report (rollout-phase.ts, in the scale run): per wave the time from the
 * rollout hook call that promoted it to every mailbox of it holding the revision, p50 and max over
 * the waves against the 5 s target; the store requests and CPU per promoted mailbox (every
 * request of the hub from that call to the wave's last translate round, over the wave's
 * mailboxes); and what the Rollout adds to an idle fleet — per poll (reads, writes, CPU), per
 * summarize pass and per translate pass over the unchanged fleet — as the difference with and
 * without it and their ratio. Goals, costs and text lines for scale-report.ts. Pure.
 */
import type { Goal } from './goal.ts'
import type { IdleSide, RolloutResults } from './rollout-types.ts'
import { percentile, ratio, round } from './stats.ts'

/** The Rollout's targets: a promotion delivered within 5 s, nothing added to an idle fleet. */
export const PROMOTION_TARGET_SECONDS = 5

export type Compared = {
  without: number | null
  with: number | null
  added: number | null
  ratio: number | null
}

/** One figure with and without the Rollout: both, the difference and with / without. */
export function compared(without: number, withIt: number, digits = 4): Compared {
  return {
    without: round(without, digits),
    with: round(withIt, digits),
    added: round(withIt - without, digits),
    ratio: without === 0 && withIt === 0 ? 1 : round(ratio(withIt, without), 3),
  }
}

/** The idle figures compared. */
export function idleAdded(idle: { without: IdleSide; with: IdleSide }) {
  const { without: a, with: b } = idle
  return {
    readsPerPoll: compared(a.readsPerPoll, b.readsPerPoll),
    writesPerPoll: compared(a.writesPerPoll, b.writesPerPoll),
    cpuMsPerPoll: compared(a.cpuMsPerPoll, b.cpuMsPerPoll, 3),
    centerCpuFraction: compared(a.centerCpuFraction, b.centerCpuFraction, 4),
    summarizeRequests: compared(a.summarizeRequests, b.summarizeRequests, 0),
    translateRequests: compared(a.translateRequests, b.translateRequests, 0),
  }
}

/** p50 and max over the waves of the promotion time, in seconds. */
export function promotionSeconds(r: RolloutResults): { p50: number | null; max: number | null } {
  const sorted = r.promotions.map((p) => p.promotionMs).sort((a, b) => a - b)
  return {
    p50: round(percentile(sorted, 50) / 1000, 2),
    max: round((sorted[sorted.length - 1] ?? Number.NaN) / 1000, 2),
  }
}

/** Over every wave: store requests and CPU (hub, store) per promoted mailbox. */
export function perPromotedMailbox(r: RolloutResults) {
  const mailboxes = r.promotions.reduce((a, p) => a + p.mailboxes, 0)
  const per = (pick: (p: RolloutResults['promotions'][number]) => number, digits: number) =>
    round(r.promotions.reduce((a, p) => a + pick(p), 0) / mailboxes, digits)
  return {
    storeRequests: per((p) => p.requestsTotal, 3),
    cpuMs: per((p) => p.cpuMs, 3),
    storeCpuMs: per((p) => p.storeCpuMs, 3),
  }
}

export function rolloutGoals(r: RolloutResults | null): Record<string, Goal> {
  const edges = r?.edges ?? null
  const added = r ? idleAdded(r.idle) : undefined
  return {
    rolloutPromotionMaxSeconds: {
      value: r ? promotionSeconds(r).max : null,
      target: PROMOTION_TARGET_SECONDS,
      edges,
    },
    rolloutIdleReadsPerPollAdded: {
      value: added?.readsPerPoll.added ?? null,
      target: 0,
      edges,
    },
  }
}

export function rolloutCosts(r: RolloutResults | null) {
  if (!r) return null
  return {
    edges: r.edges,
    waves: r.waves,
    promotionSeconds: promotionSeconds(r),
    promotedMailbox: perPromotedMailbox(r),
    idleAdded: idleAdded(r.idle),
  }
}

const cmp = (c: Compared, unit = '') =>
  `${c.without ?? '-'} → ${c.with ?? '-'}${unit} (added ${c.added ?? '-'}, ×${c.ratio ?? '-'})`

export function renderRollout(r: RolloutResults | null): string[] {
  if (!r) return []
  const s = promotionSeconds(r)
  const per = perPromotedMailbox(r)
  const a = idleAdded(r.idle)
  return [
    `rollout, ${r.edges} edges in ${r.waves} waves, ${r.objects} ConfigMaps (every edge stale, staleEdges Skip):`,
    `  setup     labels ${round(r.setupMs.label / 1000, 1)} s, adoption ${round(r.setupMs.adopt / 1000, 1)} s; revision cut ${round(r.cutWaitMs / 1000, 1)} s after the change (the settle)`,
    ...r.promotions.map(
      (p) =>
        `  ${p.wave.padEnd(9)} ${p.mailboxes} mailboxes (${p.woken} woken) in ${round(p.promotionMs / 1000, 2)} s (rollout call ${round(p.rolloutMs)} ms, ${p.rounds} round${p.rounds === 1 ? '' : 's'}), ${round(p.requestsTotal / p.mailboxes, 3)} requests/mailbox (${p.rolloutRequests} the rollout call's); translate runs ${p.translateRuns} (${p.unchangedRuns} unchanged)`
    ),
    `  promotion p50 ${s.p50 ?? '-'} s, max ${s.max ?? '-'} s (target ${PROMOTION_TARGET_SECONDS} s); per promoted mailbox ${per.storeRequests} store requests, ${per.cpuMs} + ${per.storeCpuMs} ms CPU`,
    `  idle, without → with the Rollout: reads/poll ${cmp(a.readsPerPoll)}, writes/poll ${cmp(a.writesPerPoll)}, CPU/poll ${cmp(a.cpuMsPerPoll, ' ms')}`,
    `            summarize pass ${cmp(a.summarizeRequests, ' requests')}, translate pass ${cmp(a.translateRequests, ' requests')}`,
  ]
}
