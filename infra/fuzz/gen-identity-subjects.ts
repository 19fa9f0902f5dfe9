/**
 * What the `identity` fuzz category (gen-identity.ts) tries to change — kind, apiVersion, name,
 * namespace, uid, read-only and wrongly typed metadata — and on what: a ConfigMap, a Namespace,
 * a Deployment and its status subresource, each with its path, identity, full body and the patch
 * types it takes.
 */
import {
  APPLY,
  cmKey,
  cmPath,
  deploymentPath,
  JSON_PATCH,
  key,
  MERGE,
  namespacePath,
  STRATEGIC,
  spaceOf,
  type Where,
} from './fixture.ts'
import type { Fixture, Identity } from './types.ts'

export type Change = { label: string; pointer: string; value: unknown; refuse: boolean }

export function changes(fx: Fixture): Change[] {
  return [
    { label: 'kind Secret', pointer: '/kind', value: 'Secret', refuse: true },
    { label: 'kind empty', pointer: '/kind', value: '', refuse: false },
    { label: 'apiVersion v2', pointer: '/apiVersion', value: 'v2', refuse: true },
    { label: 'apiVersion apps/v1', pointer: '/apiVersion', value: 'apps/v1', refuse: true },
    { label: 'name', pointer: '/metadata/name', value: 'fz-renamed', refuse: true },
    { label: 'namespace', pointer: '/metadata/namespace', value: 'default', refuse: true },
    {
      label: 'namespace of the space',
      pointer: '/metadata/namespace',
      value: `${fx.namespace}-other`,
      refuse: true,
    },
    {
      label: 'uid',
      pointer: '/metadata/uid',
      value: '00000000-0000-0000-0000-000000000000',
      refuse: true,
    },
    {
      label: 'creationTimestamp bogus',
      pointer: '/metadata/creationTimestamp',
      value: 'yesterday',
      refuse: false,
    },
    {
      label: 'deletionTimestamp',
      pointer: '/metadata/deletionTimestamp',
      value: '2020-01-01T00:00:00Z',
      refuse: false,
    },
    {
      label: 'deletionGracePeriodSeconds',
      pointer: '/metadata/deletionGracePeriodSeconds',
      value: 0,
      refuse: false,
    },
    {
      label: 'annotations not a map',
      pointer: '/metadata/annotations',
      value: 'notamap',
      refuse: true,
    },
    { label: 'labels a number', pointer: '/metadata/labels', value: 5, refuse: true },
    { label: 'finalizers a map', pointer: '/metadata/finalizers', value: { a: 1 }, refuse: true },
    {
      label: 'ownerReferences garbage',
      pointer: '/metadata/ownerReferences',
      value: [{ uid: 5 }],
      refuse: true,
    },
    {
      label: 'managedFields garbage',
      pointer: '/metadata/managedFields',
      value: 'x',
      refuse: true,
    },
    {
      label: 'resourceVersion garbage',
      pointer: '/metadata/resourceVersion',
      value: 'abc',
      refuse: true,
    },
    {
      label: 'selfLink',
      pointer: '/metadata/selfLink',
      value: '/api/v1/namespaces/default/secrets/x',
      refuse: false,
    },
  ]
}

export type Subject = {
  label: string
  path: string
  identity: Identity
  touches: string[]
  /** Its full body, for updates and applies. */
  body: Record<string, unknown>
  patchTypes: string[]
}

export function subjects(fx: Fixture, where: Where): Subject[] {
  const space = spaceOf(fx, where)
  const cmp = cmPath(fx, where, 'cm-a')
  const nsp = namespacePath(fx, where)
  const dp = deploymentPath(fx, where)
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: fx.deployment, namespace: fx.namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  }
  return [
    {
      label: 'configmap',
      path: cmp,
      identity: {
        path: cmp,
        kind: 'ConfigMap',
        apiVersion: 'v1',
        name: 'cm-a',
        namespace: fx.namespace,
      },
      touches: [cmKey(fx, where, 'cm-a')],
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-a', namespace: fx.namespace },
        data: { k: 'v' },
      },
      patchTypes: [MERGE, JSON_PATCH, STRATEGIC, APPLY],
    },
    {
      label: 'namespace',
      path: nsp,
      identity: { path: nsp, kind: 'Namespace', apiVersion: 'v1', name: fx.namespace },
      touches: [key(space, 'namespaces', '', fx.namespace)],
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fx.namespace } },
      patchTypes: [MERGE, JSON_PATCH, APPLY],
    },
    {
      label: 'deployment',
      path: dp,
      identity: {
        path: dp,
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        name: fx.deployment,
        namespace: fx.namespace,
      },
      touches: [key(space, 'deployments', fx.namespace, fx.deployment)],
      body: deployment,
      patchTypes: [MERGE, STRATEGIC],
    },
    {
      label: 'deployment status',
      path: `${dp}/status`,
      identity: {
        path: dp,
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        name: fx.deployment,
        namespace: fx.namespace,
      },
      touches: [key(space, 'deployments', fx.namespace, fx.deployment)],
      body: { ...deployment, status: { replicas: 1 } },
      patchTypes: [MERGE, JSON_PATCH],
    },
  ]
}
