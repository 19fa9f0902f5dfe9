/**
 * The `exceeded quota` refusal (lib/quota/exceeded.ts): kube's count keys, its sorted and
 * comma-joined printing of the bounds passed, and the Status a client receives.
 */
import { describe, expect, it } from 'vitest'
import { countKey, OBJECTS_KEY, quotaExceeded } from '../../../lib/quota/exceeded.ts'

describe('the exceeded quota refusal', () => {
  it("uses kube's object-count keys", () => {
    expect(countKey('', 'configmaps')).toBe('count/configmaps')
    expect(countKey('apps', 'deployments')).toBe('count/deployments.apps')
  })

  it('renders as kube ResourceQuota admission answers', () => {
    const e = quotaExceeded({ group: 'apps', resource: 'deployments', name: 'web' }, 'team', [
      { key: OBJECTS_KEY, used: 10, limited: 10 },
      { key: countKey('apps', 'deployments'), used: 2, limited: 2 },
    ])
    expect(e.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 403,
      reason: 'Forbidden',
      message:
        'deployments.apps "web" is forbidden: exceeded quota: team, requested: count/deployments.apps=1,objects=1, used: count/deployments.apps=2,objects=10, limited: count/deployments.apps=2,objects=10',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    })
  })
})
