/**
 * Whose a live object is, given the ownership record's entry under its key: the recorded uid
 * decides, the marker never does on its own — it only lets a pending entry (a create whose uid
 * was never recorded) adopt the object, and only with this agent's name, both annotations and
 * the agent's server-side-apply field manager on it.
 */
import { describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import {
  AGENT_ANNOTATION,
  agentIdentity,
  FIELD_MANAGER,
  markedBy,
  ownershipOf,
} from '../../../lib/edge-agent/marker.ts'
import type { OwnedRecord } from '../../../lib/edge-agent/ownership.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const ME = agentIdentity('edgeplane-system', 'edgeplane-agent-owned')

function live(o: { uid?: string; agent?: string; downsynced?: string; manager?: string } = {}) {
  const annotations: Record<string, string> = {}
  if (o.downsynced !== '') annotations[DOWNSYNCED_ANNOTATION] = o.downsynced ?? 'true'
  if (o.agent !== '') annotations[AGENT_ANNOTATION] = o.agent ?? ME
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'c',
      namespace: 'ns',
      uid: o.uid ?? 'u1',
      annotations,
      managedFields: [{ manager: o.manager ?? FIELD_MANAGER, operation: 'Apply' }],
    },
  }
  return obj
}

const rec = (uid?: string): OwnedRecord => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name: 'c',
  ...(uid ? { uid } : { pendingSince: '2030-01-01T00:00:00.000Z' }),
  hash: '',
  view: '',
  generations: [],
})

describe('ownershipOf', () => {
  it('takes an object whose uid the record holds, marker or not', () => {
    expect(ownershipOf(rec('u1'), live(), ME)).toBe('ours')
    expect(ownershipOf(rec('u1'), live({ agent: '', downsynced: '', manager: 'x' }), ME)).toBe(
      'ours'
    )
  })

  it('refuses an object under an owned key with another uid, even with the marker', () => {
    expect(ownershipOf(rec('u0'), live({ uid: 'u1' }), ME)).toBe('foreign')
  })

  it('refuses an object the record does not name, even with the marker', () => {
    expect(ownershipOf(undefined, live(), ME)).toBe('foreign')
  })

  it('adopts for a pending entry only an object with the whole marker of this agent', () => {
    expect(ownershipOf(rec(), live(), ME)).toBe('adopt')
    expect(ownershipOf(rec(), live({ agent: 'edgeplane-system/another' }), ME)).toBe('foreign')
    expect(ownershipOf(rec(), live({ agent: '' }), ME)).toBe('foreign')
    expect(ownershipOf(rec(), live({ downsynced: '' }), ME)).toBe('foreign')
    expect(ownershipOf(rec(), live({ downsynced: 'false' }), ME)).toBe('foreign')
    expect(ownershipOf(rec(), live({ manager: 'kube-controller-manager' }), ME)).toBe('foreign')
  })

  it('does not take a field manager entry of another operation as the marker', () => {
    const o = live()
    o.metadata.managedFields = [{ manager: FIELD_MANAGER, operation: 'Update' }]
    expect(markedBy(o, ME)).toBe(false)
  })
})
