/**
 * Brings a fresh (or existing) hub to its starting state, idempotently: the `root` space (implicit)
 * with its `default` namespace, the edge service provider space `root:espw` (a Workspace in root, so it shows up like any other),
 * and the admin token (a changed one revokes its predecessor). Safe to run at every start.
 */
import { ensureBootstrapAdmin } from '../auth/bootstrap-admin.ts'
import { isApiError } from '../errors.ts'
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { createObject } from './create.ts'
import type { HubDeps } from './deps.ts'
import { defaultWriteOptions } from './options.ts'
import { registryForSpace } from './space-registry.ts'
import { ROOT, type Space } from './spaces.ts'

const NAMESPACES_INFO = BUILTIN_RESOURCES.find((r) => r.group === '' && r.resource === 'namespaces')

export async function ensureWorkspace(
  deps: HubDeps,
  parent: typeof ROOT,
  name: string,
  baseUrl: string
): Promise<void> {
  const registry = await registryForSpace(deps, parent.id)
  const info = registry.byResource('tenancy.kcp.io', 'workspaces')
  if (!info) throw new Error('tenancy.kcp.io/workspaces is not registered')
  const body = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name } }
  try {
    await createObject(
      deps,
      { space: parent, info, version: 'v1alpha1' },
      { body, opts: defaultWriteOptions({ fieldManager: 'edgeplane-bootstrap', baseUrl }) }
    )
  } catch (e) {
    if (!(isApiError(e) && e.reason === 'AlreadyExists')) throw e
  }
}

/**
 * Creates the `default` Namespace of a space if it is missing (kcp gives every workspace one).
 * Namespaces are a built-in of the core group, which no CRD can serve, so the space's registry
 * (a list of its CRDs and the mailbox checks that go with it: six store requests, for a space
 * made a moment ago) is not read to find them.
 */
export async function ensureDefaultNamespace(
  deps: HubDeps,
  space: Space,
  baseUrl: string
): Promise<void> {
  const info = NAMESPACES_INFO
  if (!info) return
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }
  try {
    await createObject(
      deps,
      { space, info, version: 'v1' },
      { body, opts: defaultWriteOptions({ fieldManager: 'edgeplane-bootstrap', baseUrl }) }
    )
  } catch (e) {
    if (!(isApiError(e) && e.reason === 'AlreadyExists')) throw e
  }
}

export async function bootstrapHub(
  deps: HubDeps,
  opts: { adminToken?: string; baseUrl: string }
): Promise<void> {
  await ensureDefaultNamespace(deps, ROOT, opts.baseUrl)
  await ensureWorkspace(deps, ROOT, 'espw', opts.baseUrl)
  if (opts.adminToken) await bootstrapAdminToken(deps, opts.adminToken)
}

/**
 * Makes `token` the admin token, revoking the one it replaces (lib/auth/bootstrap-admin.ts);
 * throws when the token was retired by an earlier rotation, or when the old one cannot be revoked.
 */
export async function bootstrapAdminToken(deps: HubDeps, token: string): Promise<void> {
  const outcome = await ensureBootstrapAdmin(deps.kv, token, deps.now())
  if (outcome === 'retired')
    throw new Error(
      'the configured admin token was replaced earlier and is retired for good: configure a new one (any fresh random string)'
    )
  if (outcome === 'rotated') deps.log.warn('admin token rotated: the previous one is revoked')
}
