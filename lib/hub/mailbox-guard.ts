/**
 * The hub's refusal to make a mailbox a control plane: in a mailbox space (`root:espw:<mailbox>`)
 * or any space below one, creating an object of a control kind (lib/tenancy/control-kinds.ts:
 * placements, slices, SyncTargets, Locations, Customizers, Summarizers, SyncerConfigs, Workspaces,
 * Tokens, CRDs...) answers 403 Forbidden, whoever writes — an edge's upsync and any API client
 * alike, the admin included. It runs in the one create path (create.ts), so server-side apply of
 * an absent object meets it too. What the steps store in a mailbox through the hub is untouched:
 * the `default` Namespace its Workspace gets, and the edge's upsynced workload objects; its
 * copies and its SyncerConfig are the manifest's (projections), never stored objects. Pure: the
 * target names its space with its path.
 */
import { ESPW } from '../apis/gvr.ts'
import { ApiError, describeTarget } from '../errors.ts'
import { isMailboxName } from '../reconcile/keys.ts'
import { isControlResource } from '../tenancy/control-kinds.ts'
import type { Target } from './target.ts'

/** True for a mailbox space's path and every path below one. */
export function isMailboxOrBelow(path: string): boolean {
  const parts = path.split(':')
  return `${parts[0]}:${parts[1]}` === ESPW && parts.length >= 3 && isMailboxName(parts[2] ?? '')
}

/** Throws 403 when `t` is a control kind in a mailbox space or below (see the header). */
export function refuseControlInMailbox(t: Target, name: string): void {
  const { group, resource } = t.info
  if (!isControlResource(group, resource) || !isMailboxOrBelow(t.space.path)) return
  throw new ApiError(
    403,
    'Forbidden',
    `${describeTarget(resource, group, name)} is forbidden: ${t.space.path} is a mailbox space (or below one), which holds no ${resource}: a mailbox is never a control plane`,
    {
      details: {
        name,
        ...(group ? { group } : {}),
        kind: resource,
        causes: [{ reason: 'MailboxSpace', message: `${t.space.path} is a mailbox space` }],
      },
    }
  )
}
