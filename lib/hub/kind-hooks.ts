/**
 * Behaviour the hub gives to particular kinds, keyed by group/resource: Namespaces (phase, and
 * deleting one deletes its contents), CustomResourceDefinitions (accepted names and conditions),
 * and kcp Workspaces (creating one creates the child space). Everything else is plain data.
 */
import type { KubeObject } from '../kube/types.ts'
import type { HubDeps } from './deps.ts'
import type { Space } from './spaces.ts'

export type HookContext = { deps: HubDeps; space: Space; baseUrl: string }

export type KindHooks = {
  /** Adjusts a new object before it is stored (defaults, server-set status). May throw ApiErrors. */
  prepareCreate?: (ctx: HookContext, obj: KubeObject) => Promise<KubeObject> | KubeObject
  /**
   * Runs before a (non-dry-run) delete of the object changes anything; a throw fails the delete.
   * Tokens revoke their credential here (lib/hub/tokens.ts).
   */
  beforeDelete?: (ctx: HookContext, obj: KubeObject) => Promise<void>
  /** Runs once the delete has been decided and the object carries a deletionTimestamp. */
  finalize?: (ctx: HookContext, obj: KubeObject) => Promise<void>
  /** True when deletion must go through a terminating phase (contents to remove first). */
  terminates?: boolean
}

const hooks = new Map<string, KindHooks>()

export function registerKindHooks(group: string, resource: string, h: KindHooks): void {
  hooks.set(`${group}/${resource}`, h)
}

export function hooksFor(group: string, resource: string): KindHooks {
  return hooks.get(`${group}/${resource}`) ?? {}
}
