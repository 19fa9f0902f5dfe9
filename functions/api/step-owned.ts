/**
 * Objects only the control plane writes: SinglePlacementSlices are the where step's answer to
 * "where does this EdgePlacement go", and the translate step sends a placement's objects to the
 * destinations its slices list. A tenant who could write a slice in its own space could name any
 * edge of any inventory — past its grants — so through the API only admin tokens (operators, the
 * tools that run as them) may create, update, patch or delete one; everyone may read them. The
 * steps write through the hub in-process, never through this door.
 */
import { authorizeAdmin, type Principal } from '../../lib/auth/tokens.ts'
import type { Target } from '../../lib/hub/target.ts'

const READS = new Set(['GET', 'HEAD'])

const stepOwned = (t: Target) =>
  t.info.source === 'builtin' &&
  t.info.group === 'edge.kcp.io' &&
  t.info.resource === 'singleplacementslices'

/** 403 for a write of a step-owned object by a non-admin token. */
export function authorizeStepOwned(t: Target, method: string, principal: Principal): void {
  if (stepOwned(t) && !READS.has(method))
    authorizeAdmin(principal, `write ${t.info.resource} (the where step writes them)`)
}
