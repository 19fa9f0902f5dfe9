/** The key of a source object's copy: no version, and no namespace for a cluster-scoped object. */
import { describe, expect, it } from 'vitest'
import { copyKeyOf } from '../../../lib/placement/copy-key.ts'

describe('copyKeyOf', () => {
  it('keys a namespaced object by group, resource, namespace and name', () => {
    const o = {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      namespaced: true,
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop' },
      },
    }
    expect(copyKeyOf(o)).toEqual({
      group: 'apps',
      resource: 'deployments',
      namespace: 'shop',
      name: 'web',
    })
  })
  it('gives a cluster-scoped object no namespace, even a stray one', () => {
    const o = {
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      resource: 'clusterroles',
      namespaced: false,
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'r', namespace: 'x' },
      },
    }
    expect(copyKeyOf(o)).toEqual({
      group: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
      namespace: '',
      name: 'r',
    })
  })
})
