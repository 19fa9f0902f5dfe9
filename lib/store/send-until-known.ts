/**
 * Sending a write whose outcome may be unknown: the SDK's retry loop resends throttled, 5xx and
 * network failures itself; a failure raised around the SDK (its outcome unknown, the table never
 * refused it) is sent again here, a few times. A refused condition after a resend counts as
 * uncertain: an earlier send of the same command may have landed (object-writes.ts decides).
 */
import { isConditionalFailure } from './attrs.ts'
import { refusedAsSent, sdkAttempts } from './unavailable.ts'

/** Sends of one put whose outcome is unknown, for failures the SDK's retry loop did not see. */
export const SEND_ATTEMPTS = 3

/** Whether a refused condition may follow an earlier send of the same command that landed. */
export const resentBySdk = (e: unknown) => (sdkAttempts(e) ?? 1) > 1

/**
 * Sends a put again while its outcome is unknown and the SDK has not already sent it again (a
 * failure around the SDK that the table did not refuse as sent). Returns whether its condition
 * failed and whether an earlier send may have landed.
 */
export async function sendUntilKnown(
  send: () => Promise<unknown>
): Promise<{ refused: boolean; uncertain: boolean }> {
  let uncertain = false
  for (let attempt = 1; ; attempt++) {
    try {
      await send()
      return { refused: false, uncertain }
    } catch (e) {
      if (isConditionalFailure(e)) return { refused: true, uncertain: uncertain || resentBySdk(e) }
      if (refusedAsSent(e) || sdkAttempts(e) !== undefined || attempt >= SEND_ATTEMPTS) throw e
      uncertain = true
    }
  }
}
