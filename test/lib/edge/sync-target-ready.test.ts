/**
 * A SyncTarget's Ready condition and agent version, as a Node's: True/Heartbeating while its agent
 * was heard within the threshold (the message naming the version and the threshold, never a
 * time), Unknown/Stale once silent that long, Unknown/NeverSeen before any heartbeat, by the
 * default rule and a configured one; the status to store keeps every other field and condition,
 * moves lastTransitionTime only with the status, and holds exactly when nothing would change.
 */
import { describe, expect, it } from 'vitest'
import {
  agentVersionOf,
  livenessHolds,
  livenessStatus,
  readyWanted,
} from '../../../lib/edge/sync-target-ready.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { DEFAULT_LIVENESS, livenessRule } from '../../../lib/summarize/liveness.ts'

const T = Date.parse('2031-01-02T03:04:05Z')
const NOW = '2031-01-02T03:04:05Z'
const LATER = '2031-01-02T03:09:05Z'
const inventory = { type: 'Inventory', status: 'False', reason: 'NotInventorySpace' }
const st = (status?: Record<string, unknown>, generation = 2): KubeObject =>
  ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SyncTarget',
    metadata: { name: 'florin', generation },
    ...(status ? { status } : {}),
  }) as KubeObject

describe('readyWanted', () => {
  it('is True while the agent was heard within the threshold, naming its version', () => {
    expect(
      readyWanted({ lastHeard: T, agentVersion: '0.4.0' }, T + 179_999, DEFAULT_LIVENESS)
    ).toEqual({
      status: 'True',
      reason: 'Heartbeating',
      message: 'the edge agent (version 0.4.0) is sending heartbeats (stale after 3m of silence)',
    })
    expect(
      readyWanted({ lastHeard: T, agentVersion: undefined }, T, DEFAULT_LIVENESS).message
    ).toBe('the edge agent is sending heartbeats (stale after 3m of silence)')
  })

  it('is Unknown once the agent was silent for the threshold, or never heard', () => {
    expect(
      readyWanted({ lastHeard: T, agentVersion: '0.4.0' }, T + 180_000, DEFAULT_LIVENESS)
    ).toEqual({
      status: 'Unknown',
      reason: 'Stale',
      message:
        'the edge agent (version 0.4.0) sent no heartbeat for 3m or more: what the edge runs now is unknown',
    })
    expect(
      readyWanted({ lastHeard: undefined, agentVersion: undefined }, T, DEFAULT_LIVENESS)
    ).toEqual({
      status: 'Unknown',
      reason: 'NeverSeen',
      message: 'no edge agent has sent a heartbeat for this SyncTarget yet',
    })
  })

  it('follows a configured threshold', () => {
    const rule = livenessRule(30)
    const heard = { lastHeard: T, agentVersion: '0.4.0' }
    expect(readyWanted(heard, T + 29_999, rule).reason).toBe('Heartbeating')
    expect(readyWanted(heard, T + 30_000, rule)).toMatchObject({
      status: 'Unknown',
      reason: 'Stale',
      message: expect.stringContaining('for 30s or more'),
    })
  })
})

describe('livenessStatus', () => {
  const live = readyWanted({ lastHeard: T, agentVersion: '0.4.0' }, T, DEFAULT_LIVENESS)
  const stale = readyWanted({ lastHeard: T, agentVersion: '0.4.0' }, T + 200_000, DEFAULT_LIVENESS)

  it('sets Ready, the version and the heartbeat, keeping what else the status holds', () => {
    const before = st({ conditions: [inventory], capacity: { pods: '10' } })
    const status = livenessStatus(
      before,
      { ready: live, agentVersion: '0.4.0', heartbeatAt: NOW },
      NOW
    )
    expect(status).toEqual({
      capacity: { pods: '10' },
      agentVersion: '0.4.0',
      lastSyncerHeartbeatTime: NOW,
      conditions: [
        inventory,
        { type: 'Ready', ...live, observedGeneration: 2, lastTransitionTime: NOW },
      ],
    })
    expect(agentVersionOf({ ...before, status })).toBe('0.4.0')
  })

  it('moves lastTransitionTime only when the status moves, and drops an unsaid version', () => {
    const first = st(livenessStatus(st(), { ready: live, agentVersion: '0.4.0' }, NOW))
    const again = livenessStatus(first, { ready: live, agentVersion: '0.5.0' }, LATER)
    expect((again.conditions as any[])[0].lastTransitionTime).toBe(NOW)
    const gone = livenessStatus(st(again), { ready: stale, agentVersion: undefined }, LATER)
    expect((gone.conditions as any[])[0]).toMatchObject({
      status: 'Unknown',
      reason: 'Stale',
      lastTransitionTime: LATER,
    })
    expect(gone.agentVersion).toBeUndefined()
    expect(gone.lastSyncerHeartbeatTime).toBeUndefined()
  })

  it('holds exactly when nothing would change', () => {
    const stored = st(livenessStatus(st(), { ready: live, agentVersion: '0.4.0' }, NOW))
    expect(livenessHolds(stored, { ready: live, agentVersion: '0.4.0' })).toBe(true)
    expect(livenessHolds(stored, { ready: live, agentVersion: '0.5.0' })).toBe(false)
    expect(livenessHolds(stored, { ready: stale, agentVersion: '0.4.0' })).toBe(false)
    // a new generation of the SyncTarget: the condition is observed again
    const respecced = { ...stored, metadata: { ...stored.metadata, generation: 3 } }
    expect(livenessHolds(respecced, { ready: live, agentVersion: '0.4.0' })).toBe(false)
    expect(livenessHolds(st(), { ready: live, agentVersion: undefined })).toBe(false)
  })
})
