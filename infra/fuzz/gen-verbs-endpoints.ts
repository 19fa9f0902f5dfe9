/**
 * The endpoints the `verbs` fuzz category (gen-verbs.ts) tries every method on — health,
 * discovery, OpenAPI, version, collections, objects, subresources, namespaces, the cross-space
 * view and a self review — with, per method, the body, the setup (a disposable victim for a
 * legitimate delete) and what an accepted request may change.
 */
import {
  cmCollection,
  cmKey,
  cmPath,
  configMap,
  deploymentPath,
  key,
  MERGE,
  namespacePath,
  prefix,
  spaceOf,
  type Where,
} from './fixture.ts'
import type { Fixture, SetupStep } from './types.ts'

export const VICTIM_NAMESPACE = 'victim-ns'

export type Endpoint = {
  label: string
  path: string
  /** discovery-like endpoints accept reads only; `health` needs no token. */
  kind: 'health' | 'discovery' | 'collection' | 'object' | 'sub' | 'cross' | 'review'
  where: Where | 'any'
  /** Per method: body, setup and what an accepted request may change. */
  write?: Partial<
    Record<
      string,
      {
        body?: unknown
        contentType?: string
        setup?: SetupStep[]
        touches?: string[]
        path?: string
        refuse?: boolean
      }
    >
  >
}

export function endpoints(fx: Fixture, where: Where, n: () => number): Endpoint[] {
  const p = prefix(fx, where)
  const space = spaceOf(fx, where)
  const dep = deploymentPath(fx, where)
  const depKey = key(space, 'deployments', fx.namespace, fx.deployment)
  const victim = `victim-v${n()}`
  const victimNs = `victim-ns${n()}`
  const scale = {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: fx.deployment, namespace: fx.namespace },
    spec: { replicas: 2 },
  }
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
    status: { replicas: 1 },
  }
  return [
    { label: 'healthz', path: '/healthz', kind: 'health', where: 'any' },
    { label: 'readyz', path: '/readyz', kind: 'health', where: 'any' },
    { label: '/api', path: `${p}/api`, kind: 'discovery', where },
    { label: '/apis', path: `${p}/apis`, kind: 'discovery', where },
    { label: '/api/v1', path: `${p}/api/v1`, kind: 'discovery', where },
    { label: '/apis/apps', path: `${p}/apis/apps`, kind: 'discovery', where },
    { label: '/apis/apps/v1', path: `${p}/apis/apps/v1`, kind: 'discovery', where },
    { label: 'openapi v2', path: `${p}/openapi/v2`, kind: 'discovery', where },
    { label: 'openapi v3', path: `${p}/openapi/v3`, kind: 'discovery', where },
    { label: 'openapi v3 doc', path: `${p}/openapi/v3/api/v1`, kind: 'discovery', where },
    { label: 'version', path: `${p}/version`, kind: 'discovery', where },
    {
      label: 'configmaps',
      path: cmCollection(fx, where),
      kind: 'collection',
      where,
      write: {
        POST: { body: configMap(victim), touches: [] },
        DELETE: {
          path: cmCollection(fx, where, VICTIM_NAMESPACE),
          setup: [
            {
              method: 'POST',
              path: cmCollection(fx, where, VICTIM_NAMESPACE),
              body: configMap(`${victim}c`),
            },
          ],
        },
      },
    },
    {
      label: 'configmap',
      path: cmPath(fx, where, 'cm-a'),
      kind: 'object',
      where,
      write: {
        PUT: { body: configMap('cm-a', { verb: 'put' }), touches: [cmKey(fx, where, 'cm-a')] },
        PATCH: {
          body: { data: { verb: 'patch' } },
          contentType: MERGE,
          touches: [cmKey(fx, where, 'cm-a')],
        },
        DELETE: {
          path: cmPath(fx, where, victim),
          setup: [{ method: 'POST', path: cmCollection(fx, where), body: configMap(victim) }],
        },
        POST: { body: configMap('cm-a'), refuse: true },
      },
    },
    {
      label: 'deployment',
      path: dep,
      kind: 'object',
      where,
      write: {
        PUT: { body: deployment, touches: [depKey] },
        PATCH: {
          body: { metadata: { labels: { verb: 'patch' } } },
          contentType: MERGE,
          touches: [depKey],
        },
        DELETE: {
          path: `${p}/apis/apps/v1/namespaces/${fx.namespace}/deployments/${victim}`,
          setup: [
            {
              method: 'POST',
              path: `${p}/apis/apps/v1/namespaces/${fx.namespace}/deployments`,
              body: { ...deployment, metadata: { name: victim }, status: undefined },
            },
          ],
        },
        POST: { body: deployment, refuse: true },
      },
    },
    {
      label: 'deployment status',
      path: `${dep}/status`,
      kind: 'sub',
      where,
      write: {
        PUT: { body: deployment, touches: [depKey] },
        PATCH: {
          body: { status: { observedGeneration: 1 } },
          contentType: MERGE,
          touches: [depKey],
        },
        DELETE: { refuse: true },
        POST: { body: deployment, refuse: true },
      },
    },
    {
      label: 'deployment scale',
      path: `${dep}/scale`,
      kind: 'sub',
      where,
      write: {
        PUT: { body: scale, touches: [depKey] },
        PATCH: { body: { spec: { replicas: 1 } }, contentType: MERGE, touches: [depKey] },
        DELETE: { refuse: true },
        POST: { body: scale, refuse: true },
      },
    },
    {
      label: 'namespaces',
      path: `${p}/api/v1/namespaces`,
      kind: 'collection',
      where,
      write: {
        POST: { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: victimNs } } },
        DELETE: { refuse: true },
      },
    },
    {
      label: 'namespace',
      path: namespacePath(fx, where),
      kind: 'object',
      where,
      write: {
        PUT: {
          body: {
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: { name: fx.namespace, labels: { verb: 'put' } },
          },
          touches: [key(space, 'namespaces', '', fx.namespace)],
        },
        PATCH: {
          body: { metadata: { labels: { verb: 'patch' } } },
          contentType: MERGE,
          touches: [key(space, 'namespaces', '', fx.namespace)],
        },
        DELETE: {
          path: namespacePath(fx, where, victimNs),
          setup: [
            {
              method: 'POST',
              path: `${p}/api/v1/namespaces`,
              body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: victimNs } },
            },
          ],
        },
        POST: { body: {}, refuse: true },
      },
    },
    {
      label: 'cross-space configmaps',
      path: '/clusters/*/api/v1/configmaps',
      kind: 'cross',
      where: 'any',
      write: { POST: { body: configMap('fz-cross') } },
    },
    {
      label: 'cross-space namespaced configmaps',
      path: `/clusters/*/api/v1/namespaces/${fx.namespace}/configmaps`,
      kind: 'cross',
      where: 'any',
      write: { POST: { body: configMap('fz-cross2') } },
    },
    {
      label: 'cross-space configmap',
      path: `/clusters/*/api/v1/namespaces/${fx.namespace}/configmaps/cm-a`,
      kind: 'cross',
      where: 'any',
      write: { PUT: { body: configMap('cm-a', { cross: 'y' }) } },
    },
    {
      label: 'self access review',
      path: `${p}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`,
      kind: 'review',
      where,
      write: {
        POST: {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: { verb: 'delete', resource: 'namespaces' } },
          },
        },
      },
    },
  ]
}
