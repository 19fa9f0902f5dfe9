/**
 * Behaviour the hub gives to particular kinds, keyed by group/resource: Namespaces (phase, and
 * deleting one deletes its contents), CustomResourceDefinitions (accepted names and conditions),
 * kcp Workspaces (creating one creates the child space), Tokens, and EdgePlacements (a dry run's
 * answer shows what it would do; that preview is never stored). Everything else is plain data.
 * The registry belongs to one hub: its dependencies carry it (`HubDeps.hooks`, filled with the
 * built-in hooks where the dependencies are built, builtin-hooks.ts), so a hook registered on one
 * hub never fires on another hub of the same process. The dependency type is a parameter here so
 * this file need not import deps.ts, which names the registry.
 */
import type { KubeObject } from '../kube/types.ts'
import type { Space } from './spaces.ts'

export type HookContext<D> = { deps: D; space: Space; baseUrl: string }

export type KindHooks<D> = {
  /** Adjusts a new object before it is stored (defaults, server-set status). May throw ApiErrors. */
  prepareCreate?: (ctx: HookContext<D>, obj: KubeObject) => Promise<KubeObject> | KubeObject
  /**
   * Runs before a (non-dry-run) delete of the object changes anything; a throw fails the delete.
   * Tokens revoke their credential here (lib/hub/tokens.ts).
   */
  beforeDelete?: (ctx: HookContext<D>, obj: KubeObject) => Promise<void>
  /** Runs once the delete has been decided and the object carries a deletionTimestamp. */
  finalize?: (ctx: HookContext<D>, obj: KubeObject) => Promise<void>
  /** True when deletion must go through a terminating phase (contents to remove first). */
  terminates?: boolean
  /**
   * The answer of a dry-run create, update or patch (nothing was stored) made from the object it
   * would have stored: EdgePlacements add `status.preview` (placement-hooks.ts).
   */
  dryRunAnswer?: (ctx: HookContext<D>, obj: KubeObject) => Promise<KubeObject>
  /**
   * The object without the fields no client may store, on every create and update (status
   * writes included) before validation, as kube's strategies reset server-owned fields in
   * PrepareForCreate/PrepareForUpdate; answers `obj` itself when there is nothing to drop.
   */
  resetFields?: (obj: KubeObject) => KubeObject
}

export type KindHookRegistry<D> = {
  /** Sets the hooks of group/resource (replacing earlier ones). */
  register(group: string, resource: string, hooks: KindHooks<D>): void
  /** The hooks of group/resource; none (`{}`) for plain data. */
  for(group: string, resource: string): KindHooks<D>
}

/** An empty registry (see the header: one per hub). */
export function createKindHookRegistry<D>(): KindHookRegistry<D> {
  const hooks = new Map<string, KindHooks<D>>()
  return {
    register: (group, resource, h) => {
      hooks.set(`${group}/${resource}`, h)
    },
    for: (group, resource) => hooks.get(`${group}/${resource}`) ?? {},
  }
}
