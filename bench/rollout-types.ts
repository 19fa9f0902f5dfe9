/**
 * The rollout phase's shapes (rollout-phase.ts): what one wave's promotion measured, what an idle
 * fleet costs with and without the Rollout, and the phase's results. Plain types only.
 */

/** One wave promoted to the new revision and delivered to every mailbox of it. */
export type WavePromotion = {
  wave: string
  /** Mailboxes of the wave. */
  mailboxes: number
  /** Mailboxes the relay woke for the promoting status write (rollout-relay.ts). */
  woken: number
  /**
   * From sending the rollout hook call whose status write promoted the wave (its gate passed in
   * it) until the translate runs after it returned with every mailbox of the wave holding the
   * revision, ms.
   */
  promotionMs: number
  /** Of which the rollout hook call. */
  rolloutMs: number
  /** Translate hook rounds it took (another one for mailboxes found without the revision). */
  rounds: number
  /** DynamoDB requests of the hub over promotionMs, by operation, and their sum. */
  requests: Record<string, number>
  requestsTotal: number
  /** Of which the rollout hook call's. */
  rolloutRequests: number
  /** CPU of the hub's process and of the store's over promotionMs, ms. */
  cpuMs: number
  storeCpuMs: number
  /** Translate runs over the time, and how many of them changed nothing. */
  translateRuns: number
  unchangedRuns: number
}

/** What an idle fleet costs, one side of the comparison. */
export type IdleSide = {
  polls: number
  failed: number
  readsPerPoll: number
  writesPerPoll: number
  /** CPU of the center (hub and store) per poll, ms, and over wall time per core. */
  cpuMsPerPoll: number
  centerCpuFraction: number
  /** Store requests of one summarize pass over the placement, the fleet unchanged. */
  summarizeRequests: number
  /** Store requests of one translate pass over every mailbox, the fleet unchanged. */
  translateRequests: number
}

export type RolloutResults = {
  edges: number
  objects: number
  waves: number
  /** Untimed setup: labelling the Locations, creating and adopting the Rollout, ms. */
  setupMs: { label: number; adopt: number }
  /** From the ConfigMap's change to the rollout step cutting the revision (the settle), ms. */
  cutWaitMs: number
  /** One per wave, in order. */
  promotions: WavePromotion[]
  idle: { without: IdleSide; with: IdleSide }
}
