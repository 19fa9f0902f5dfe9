/**
 * The refusal of a create past a SpaceQuota, worded as kube's ResourceQuota admission words it
 * (apiserver's resourcequota controller, through admission.NewForbidden): 403 Forbidden,
 * `<resource> "<name>" is forbidden: exceeded quota: <quota>, requested: <k>=1, used: <k>=<n>,
 * limited: <k>=<max>`, the keys that would be exceeded sorted and joined with commas as kube's
 * prettyPrint does, the object's group, resource and name in the details. The keys: `objects`
 * for `spec.maxObjects` (every resource together), kube's `count/<resource>` and
 * `count/<resource>.<group>` for a resource's bound.
 */
import { ApiError, describeTarget } from '../errors.ts'

/** One bound the create would pass: its key, the usage before the create and the limit. */
export type Exceeded = { key: string; used: number; limited: number }

/** kube's object-count key of a resource (`count/configmaps`, `count/deployments.apps`). */
export const countKey = (group: string, resource: string) =>
  group ? `count/${resource}.${group}` : `count/${resource}`

/** The key of `spec.maxObjects`. */
export const OBJECTS_KEY = 'objects'

const print = (values: readonly { key: string; n: number }[]) =>
  values.map((v) => `${v.key}=${v.n}`).join(',')

export function quotaExceeded(
  target: { group: string; resource: string; name: string },
  quota: string,
  exceeded: readonly Exceeded[]
): ApiError {
  const sorted = [...exceeded].sort((a, b) => a.key.localeCompare(b.key))
  const requested = print(sorted.map((e) => ({ key: e.key, n: 1 })))
  const used = print(sorted.map((e) => ({ key: e.key, n: e.used })))
  const limited = print(sorted.map((e) => ({ key: e.key, n: e.limited })))
  const what = describeTarget(target.resource, target.group, target.name)
  return new ApiError(
    403,
    'Forbidden',
    `${what} is forbidden: exceeded quota: ${quota}, requested: ${requested}, used: ${used}, limited: ${limited}`,
    {
      details: {
        name: target.name,
        ...(target.group ? { group: target.group } : {}),
        kind: target.resource,
      },
    }
  )
}
