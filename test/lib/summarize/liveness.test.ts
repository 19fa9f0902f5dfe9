/**
 * Liveness arithmetic: the later of the status heartbeat and the lease; live within a threshold;
 * where an edge stands by the rule (heartbeating, stale, never seen); the rule a configured
 * threshold makes; when the next live destination turns stale; which status-heartbeat gaps mean a
 * return (not a refresh); and when to look again for returns a watcher cannot see — by the
 * default rule and by a configured one.
 */
import { describe, expect, it } from 'vitest'
import { HEARTBEAT_STATUS_MS } from '../../../lib/edge/lease.ts'
import { HEARTBEAT_MS } from '../../../lib/edge/protocol.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  cameBack,
  DEFAULT_LIVENESS,
  heartbeatAt,
  isLive,
  lastHeard,
  livenessAt,
  livenessOf,
  livenessRule,
  nextComeBackCheckIn,
  nextStaleIn,
  REFRESH_GAP_MS,
  STALE_AFTER_MS,
} from '../../../lib/summarize/liveness.ts'

const T = Date.parse('2031-01-02T03:04:05Z')
const st = (at?: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name: 'e' },
  ...(at === undefined ? {} : { status: { lastSyncerHeartbeatTime: at } }),
})

describe('liveness', () => {
  it('reads the status heartbeat, and nothing from a missing or bad one', () => {
    expect(heartbeatAt(st('2031-01-02T03:04:05Z'))).toBe(T)
    expect(heartbeatAt(st())).toBeUndefined()
    expect(heartbeatAt(st('soon'))).toBeUndefined()
    expect(heartbeatAt(undefined)).toBeUndefined()
  })

  it('hears an edge at the later of its status heartbeat and its lease', () => {
    expect(lastHeard(st('2031-01-02T03:04:05Z'), T + 60_000)).toBe(T + 60_000)
    expect(lastHeard(st('2031-01-02T03:04:05Z'), T - 60_000)).toBe(T)
    expect(lastHeard(st(), T)).toBe(T)
    expect(lastHeard(st('2031-01-02T03:04:05Z'), undefined)).toBe(T)
    expect(lastHeard(st('2031-01-02T03:04:05Z'), 0)).toBe(T) // a lease never renewed
    expect(lastHeard(st(), undefined)).toBeUndefined()
    expect(lastHeard(undefined, 0)).toBeUndefined()
  })

  it('is live strictly within the threshold; never heard is not live', () => {
    expect(isLive(T, T + STALE_AFTER_MS - 1, STALE_AFTER_MS)).toBe(true)
    expect(isLive(T, T + STALE_AFTER_MS, STALE_AFTER_MS)).toBe(false)
    expect(isLive(undefined, T, STALE_AFTER_MS)).toBe(false)
  })

  it('finds when the next live destination turns stale', () => {
    const now = T + 100_000
    expect(nextStaleIn([T, T + 50_000, undefined, T - STALE_AFTER_MS], now, STALE_AFTER_MS)).toBe(
      STALE_AFTER_MS - 100_000
    )
    expect(nextStaleIn([undefined, T - STALE_AFTER_MS], now, STALE_AFTER_MS)).toBeUndefined()
  })

  it('tells a return from a refresh by the gap between status heartbeats', () => {
    expect(cameBack(HEARTBEAT_MS)).toBe(false)
    expect(cameBack(STALE_AFTER_MS - 1)).toBe(false)
    expect(cameBack(STALE_AFTER_MS)).toBe(true)
    expect(cameBack(HEARTBEAT_STATUS_MS - HEARTBEAT_MS - 1)).toBe(true)
    expect(cameBack(HEARTBEAT_STATUS_MS - HEARTBEAT_MS)).toBe(false) // an early refresh
    expect(cameBack(HEARTBEAT_STATUS_MS)).toBe(false) // a refresh, on time
    expect(cameBack(HEARTBEAT_STATUS_MS + REFRESH_GAP_MS - 1)).toBe(false) // a late refresh
    expect(cameBack(HEARTBEAT_STATUS_MS + REFRESH_GAP_MS)).toBe(true)
    expect(cameBack(24 * 3600_000)).toBe(true)
  })

  it('looks again while a destination is silent long enough to be stale but not to be seen back', () => {
    const now = T
    expect(nextComeBackCheckIn([now - 1000, undefined], now)).toBeUndefined()
    expect(nextComeBackCheckIn([now - STALE_AFTER_MS], now)).toBe(HEARTBEAT_MS)
    expect(nextComeBackCheckIn([now - HEARTBEAT_STATUS_MS], now)).toBe(HEARTBEAT_MS)
    const end = HEARTBEAT_STATUS_MS + REFRESH_GAP_MS
    expect(nextComeBackCheckIn([now - end + 1], now)).toBe(HEARTBEAT_MS)
    expect(nextComeBackCheckIn([now - end, now - 10 * end], now)).toBeUndefined()
  })

  it('says where an edge stands by the rule: heartbeating, stale or never seen', () => {
    expect(livenessAt(T, T + STALE_AFTER_MS - 1)).toBe('Heartbeating')
    expect(livenessAt(T, T + STALE_AFTER_MS)).toBe('Stale')
    expect(livenessAt(undefined, T)).toBe('NeverSeen')
    const short = livenessRule(30)
    expect(livenessAt(T, T + 29_999, short)).toBe('Heartbeating')
    expect(livenessAt(T, T + 30_000, short)).toBe('Stale')
  })

  it('makes a rule of a configured threshold: agents beat three times within it, at most once a minute', () => {
    expect(livenessRule()).toBe(DEFAULT_LIVENESS)
    expect(DEFAULT_LIVENESS).toEqual({ heartbeatMs: HEARTBEAT_MS, staleAfterMs: 180_000 })
    expect(livenessRule(30)).toEqual({ heartbeatMs: 10_000, staleAfterMs: 30_000 })
    expect(livenessRule(10)).toEqual({ heartbeatMs: 3333, staleAfterMs: 10_000 })
    expect(livenessRule(600)).toEqual({ heartbeatMs: HEARTBEAT_MS, staleAfterMs: 600_000 })
    expect(livenessOf({})).toBe(DEFAULT_LIVENESS)
    expect(livenessOf({ liveness: livenessRule(30) }).staleAfterMs).toBe(30_000)
  })

  it('tells returns and looks again by a configured rule', () => {
    const r = livenessRule(30)
    expect(cameBack(29_999, r)).toBe(false)
    expect(cameBack(30_000, r)).toBe(true) // would be no return by the default rule
    expect(cameBack(30_000)).toBe(false)
    expect(cameBack(HEARTBEAT_STATUS_MS - 10_000, r)).toBe(false) // an early refresh
    expect(cameBack(HEARTBEAT_STATUS_MS + 20_000, r)).toBe(true) // past a refresh's lateness
    expect(nextComeBackCheckIn([T - 30_000], T, r)).toBe(10_000)
    expect(nextComeBackCheckIn([T - 29_000], T, r)).toBeUndefined()
    expect(nextComeBackCheckIn([T - HEARTBEAT_STATUS_MS - 20_000], T, r)).toBeUndefined()
  })
})
