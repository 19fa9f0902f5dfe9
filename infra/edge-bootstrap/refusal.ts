/**
 * The bootstrap CLI's answer to the hub's refusal to replace an existing credential (409 Conflict
 * whose Status names the field `rotate`, lib/edge/credentials.ts): a message saying what running
 * on would do and how to ask for it, for exit code 3. Any other failure is not one (undefined).
 */
import { ROTATE_FIELD } from '../../lib/edge/credentials.ts'
import { isRemoteError } from '../../lib/remote/remote-error.ts'

/** Exit code of a refused rotation. */
export const REFUSED_ROTATION_EXIT = 3

export function rotationRefusal(
  err: unknown,
  target: { inventory: string; syncTarget: string }
): string | undefined {
  if (!isRemoteError(err, 409) || !err.causes.some((c) => c.field === ROTATE_FIELD))
    return undefined
  const name = `SyncTarget ${target.syncTarget} in ${target.inventory}`
  return [
    `refused: ${name} already has an edge credential, which its agent may be using; nothing was written.`,
    `  the hub said: ${err.detail}`,
    '  To replace it, run the same command with --rotate: the current token stops working at once,',
    '  and the agent using it is cut off until the new manifests are applied at its edge.',
    '  To connect another edge cluster, create a SyncTarget of its own and bootstrap that one.',
  ].join('\n')
}
