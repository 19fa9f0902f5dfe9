/**
 * The kinds the hub interprets. Namespaces get phase Active and, when deleted, lose their content
 * before they go. CustomResourceDefinitions are validated, get accepted names and Established
 * conditions, and take their custom resources with them. tenancy.kcp.io Workspaces create their
 * child space (status Ready with its URL) and, when deleted, delete it and everything in it.
 * Tokens revoke their credential when deleted (tokens.ts). A dry run of an EdgePlacement answers
 * with its preview, which no write stores (placement-hooks.ts), and so does one of a Rollout
 * (rollout-hooks.ts). Each hub gets its own registry of
 * them where its dependencies are built (`builtinKindHooks`, kind-hooks.ts).
 */
import { invalid } from '../errors.ts'
import { resourcesFromCrd, validateCrd } from '../kube/crd.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { bumpEpoch } from '../store/epochs.ts'
import { ensureDefaultNamespace } from './bootstrap.ts'
import { removeAllOf, removeContent } from './content.ts'
import type { HubDeps } from './deps.ts'
import {
  type HookContext as Context,
  createKindHookRegistry,
  type KindHookRegistry,
} from './kind-hooks.ts'
import { isMailboxPath, rememberSpace } from './mailbox-space.ts'
import { withNameLabel } from './namespace-label.ts'
import { registerPlacementHooks } from './placement-hooks.ts'
import { registerRolloutHooks } from './rollout-hooks.ts'
import { registryForSpace } from './space-registry.ts'
import {
  ensureSpace,
  forgetSpace,
  getSpaceByPath,
  markSpaceTerminating,
  type Space,
} from './spaces.ts'
import { finishTermination } from './terminate.ts'
import { registerTokenHooks } from './tokens.ts'
import { registerUidIndexHooks } from './uid-index.ts'

type HookContext = Context<HubDeps>

/** How often a space deletion deletes a manifest a racing translator wrote again. */
const MANIFEST_RACE_ATTEMPTS = 3

class ContentRemains extends Error {
  override name = 'ContentRemains'
}

async function finalizeNamespace(ctx: HookContext, ns: KubeObject): Promise<void> {
  const registry = await registryForSpace(ctx.deps, ctx.space.id)
  const namespaced = registry.all().filter((r) => r.namespaced)
  const done = await removeContent(ctx.deps, namespaced, {
    cluster: ctx.space.id,
    namespace: ns.metadata.name ?? '',
  })
  if (!done)
    throw new ContentRemains(`namespace ${ns.metadata.name} still has content with finalizers`)
}

function crdPrepare(_ctx: HookContext, crd: KubeObject): KubeObject {
  const causes = validateCrd(crd)
  if (causes.length > 0)
    throw invalid(
      'customresourcedefinitions',
      {
        group: 'apiextensions.k8s.io',
        kind: 'CustomResourceDefinition',
        name: crd.metadata.name ?? '',
      },
      causes
    )
  const spec = crd.spec as { names?: unknown; versions?: { name: string; storage?: boolean }[] }
  const now = timestamp(_ctx.deps.now())
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: '',
    lastTransitionTime: now,
  })
  return {
    ...crd,
    status: {
      acceptedNames: (spec.names ?? {}) as never,
      storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
      conditions: [
        condition('NamesAccepted', 'NoConflicts'),
        condition('Established', 'InitialNamesAccepted'),
      ],
    },
  }
}

async function finalizeCrd(ctx: HookContext, crd: KubeObject): Promise<void> {
  const info = resourcesFromCrd(crd)
  if (!info) return
  if (!(await removeAllOf(ctx.deps, info, { cluster: ctx.space.id })))
    throw new ContentRemains(`custom resources of ${crd.metadata.name} still have finalizers`)
}

async function workspacePrepare(ctx: HookContext, ws: KubeObject): Promise<KubeObject> {
  const path = `${ctx.space.path}:${ws.metadata.name}`
  const child = await ensureSpace(ctx.deps.kv, path, {
    workspaceUid: ws.metadata.uid ?? '',
    // Nothing reads a mailbox space whole (its copies are its manifest's).
    indexCollections: !isMailboxPath(path),
  })
  rememberSpace(ctx.deps.kv, child)
  await ensureDefaultNamespace(ctx.deps, child, ctx.baseUrl)
  const spec = {
    type: { name: 'universal', path: 'root' },
    ...((ws.spec as object) ?? {}),
    cluster: child.id,
  }
  return { ...ws, spec, status: { phase: 'Ready', URL: `${ctx.baseUrl}/clusters/${path}` } }
}

/**
 * Deletes a whole space: nested workspaces first (recursively), then the mailbox manifest if any,
 * then every object, then the record.
 */
export async function deleteSpace(ctx: HookContext, space: Space): Promise<void> {
  await markSpaceTerminating(ctx.deps.kv, space)
  const inner: HookContext = { ...ctx, space }
  const workspaces = await ctx.deps.objects.list({
    cluster: space.id,
    group: 'tenancy.kcp.io',
    resource: 'workspaces',
  })
  for (const ws of workspaces.items) {
    const key = {
      cluster: space.id,
      group: 'tenancy.kcp.io',
      resource: 'workspaces',
      namespace: '',
      name: ws.metadata.name ?? '',
    }
    const marked = ws.metadata.deletionTimestamp
      ? ws
      : { ...ws, metadata: { ...ws.metadata, deletionTimestamp: timestamp(ctx.deps.now()) } }
    if (marked !== ws) await ctx.deps.objects.update(key, marked, ws.metadata.resourceVersion ?? '')
    await finishTermination(ctx.deps, space, key, { baseUrl: ctx.baseUrl })
  }
  const registry = await registryForSpace(ctx.deps, space.id)
  const all = registry.all()
  const ordered = [
    ...all.filter((r) => r.source === 'crd'),
    ...all.filter((r) => r.source !== 'crd'),
  ]
  // Projected copies (mailbox spaces) go first, so removing the stored content does not meet them.
  // A translator that read the space just before it turned Terminating may still write one more
  // manifest: then the copies are met again, so the manifest goes again (a few times at most).
  for (let attempt = 1; ; attempt++) {
    await ctx.deps.projections.deleteManifest(space.id)
    if (await removeContent(inner.deps, ordered, { cluster: space.id })) break
    const again = await ctx.deps.projections.getManifest(space.id)
    if (!again || attempt >= MANIFEST_RACE_ATTEMPTS)
      throw new ContentRemains(`space ${space.path} still has content with finalizers`)
  }
  // The edge API's idle polls stop trusting what they remembered of the manifest.
  await bumpEpoch(ctx.deps.kv, 'manifests')
  await forgetSpace(ctx.deps.kv, space)
}

async function finalizeWorkspace(ctx: HookContext, ws: KubeObject): Promise<void> {
  const child = await getSpaceByPath(ctx.deps.kv, `${ctx.space.path}:${ws.metadata.name}`)
  if (child) await deleteSpace(ctx, child)
}

/** A new registry (for one hub) holding the hooks of the kinds described in the header. */
export function builtinKindHooks(): KindHookRegistry<HubDeps> {
  const hooks = createKindHookRegistry<HubDeps>()
  hooks.register('', 'namespaces', {
    terminates: true,
    prepareCreate: (_ctx, ns) => ({
      ...withNameLabel(ns),
      spec: { finalizers: ['kubernetes'], ...((ns.spec as object) ?? {}) },
      status: { phase: 'Active' },
    }),
    finalize: finalizeNamespace,
  })
  hooks.register('apiextensions.k8s.io', 'customresourcedefinitions', {
    terminates: true,
    prepareCreate: crdPrepare,
    finalize: finalizeCrd,
  })
  hooks.register('tenancy.kcp.io', 'workspaces', {
    terminates: true,
    prepareCreate: workspacePrepare,
    finalize: finalizeWorkspace,
  })
  registerTokenHooks(hooks)
  registerUidIndexHooks(hooks)
  registerPlacementHooks(hooks)
  registerRolloutHooks(hooks)
  return hooks
}
