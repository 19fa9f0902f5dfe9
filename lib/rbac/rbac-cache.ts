/**
 * What one hub in edge-cluster mode remembers of its RBAC objects (HubCaches `rbac`): the decoded
 * policy and the generation it was read at. Every write of an RBAC object through this hub moves
 * the generation (lib/hub/write.ts), so the next request reads the objects again; a load that
 * began before a move is not kept. One simulated edge is one process and the only writer of its
 * store, so this is exact there (kube's own authorizer reads through informers and lags a little).
 */
import type { RbacPolicy } from './types.ts'

export type RbacCache = {
  generation(): number
  get(): RbacPolicy | undefined
  /** Keeps `policy` if nothing moved the generation since `generation` was read. */
  set(policy: RbacPolicy, generation: number): void
  forget(): void
}

export function createRbacCache(): RbacCache {
  let gen = 0
  let entry: { policy: RbacPolicy; gen: number } | undefined
  return {
    generation: () => gen,
    get: () => (entry && entry.gen === gen ? entry.policy : undefined),
    set: (policy, at) => {
      if (at === gen) entry = { policy, gen }
    },
    forget: () => {
      gen++
      entry = undefined
    },
  }
}
