/** The deterministic names of the summarize step's Events. */
import { describe, expect, it } from 'vitest'
import { problemEventName } from '../../../functions/reconcile-summarize/names.ts'

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const cm = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', namespace: 'ns', uid: 'u1' }

describe('problemEventName', () => {
  it('is the object name and a digest, the same for the same placement, object and reason', () => {
    const name = problemEventName('p1', { reason: 'ApplyFailed', involved: cm })
    expect(name).toMatch(/^cfg\.[0-9a-f]{16}$/)
    expect(problemEventName('p1', { reason: 'ApplyFailed', involved: cm })).toBe(name)
    const others = [
      problemEventName('p2', { reason: 'ApplyFailed', involved: cm }),
      problemEventName('p1', { reason: 'ForeignObject', involved: cm }),
      problemEventName('p1', { reason: 'ApplyFailed', involved: { ...cm, uid: 'u2' } }),
    ]
    expect(new Set([name, ...others]).size).toBe(4)
  })

  it('is a DNS subdomain whatever the object is called', () => {
    for (const name of ['system:Controller', '-a..b-', ':::', 'x'.repeat(253)]) {
      const made = problemEventName('p', { reason: 'ApplyFailed', involved: { ...cm, name } })
      expect(made).toMatch(SUBDOMAIN)
      expect(made.length).toBeLessThanOrEqual(253)
    }
  })
})
