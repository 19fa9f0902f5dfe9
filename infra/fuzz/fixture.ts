/**
 * The fixture every fuzz run aims at, and the paths into it. The same namespace is seeded in
 * `root` and in a child space so dot-segment and cross-space tricks have something to hit; names
 * starting with `victim-` are disposable (created by a request's setup, never snapshotted), every
 * other object in the watched collections is protected (see snapshot.ts). `key()` is how the
 * snapshot names an object: `<space>|<resource>|<namespace>|<name>`.
 */
import type { Fixture, FuzzRequest } from './types.ts'

export const DEFAULT_FIXTURE: Fixture = {
  space: 'fuzz-ws',
  namespace: 'fuzz',
  configMaps: ['cm-a', 'cm-b', 'cm-c'],
  secret: 'sec-a',
  deployment: 'web',
  mailbox: '',
  otherMailbox: '',
  inventory: 'fuzz-imw',
  syncTarget: 'fuzz-edge',
}

/** Where a path points: `root` (no prefix), the fuzz space, or root through `/clusters/root`. */
export type Where = 'root' | 'space' | 'root-explicit'

export const spacePath = (fx: Fixture) => `root:${fx.space}`

export function prefix(fx: Fixture, where: Where): string {
  if (where === 'root') return ''
  if (where === 'root-explicit') return '/clusters/root'
  return `/clusters/${spacePath(fx)}`
}

export const spaceOf = (fx: Fixture, where: Where) => (where === 'space' ? spacePath(fx) : 'root')

export const key = (space: string, resource: string, namespace: string, name: string) =>
  `${space}|${resource}|${namespace}|${name}`

export function cmCollection(fx: Fixture, where: Where, namespace = fx.namespace): string {
  return `${prefix(fx, where)}/api/v1/namespaces/${namespace}/configmaps`
}

export function cmPath(fx: Fixture, where: Where, name: string, namespace = fx.namespace): string {
  return `${cmCollection(fx, where, namespace)}/${name}`
}

export function cmKey(fx: Fixture, where: Where, name: string): string {
  return key(spaceOf(fx, where), 'configmaps', fx.namespace, name)
}

export function deploymentPath(fx: Fixture, where: Where, sub?: string): string {
  const base = `${prefix(fx, where)}/apis/apps/v1/namespaces/${fx.namespace}/deployments/${fx.deployment}`
  return sub ? `${base}/${sub}` : base
}

export function namespacePath(fx: Fixture, where: Where, name = fx.namespace): string {
  return `${prefix(fx, where)}/api/v1/namespaces/${name}`
}

export function configMap(name: string, data: Record<string, string> = { k: 'v' }): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }
}

/** Setup creating a disposable ConfigMap `name` in the fuzz namespace. */
export function victimCm(fx: Fixture, where: Where, name: string): FuzzRequest['setup'] {
  return [{ method: 'POST', path: cmCollection(fx, where), body: configMap(name) }]
}

export const JSON_TYPE = 'application/json'
export const MERGE = 'application/merge-patch+json'
export const JSON_PATCH = 'application/json-patch+json'
export const STRATEGIC = 'application/strategic-merge-patch+json'
export const APPLY = 'application/apply-patch+yaml'
export const PATCH_TYPES = [MERGE, JSON_PATCH, STRATEGIC, APPLY] as const
