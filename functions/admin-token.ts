/**
 * The Worker's side of the bootstrap admin token (ADMIN_TOKEN): on an isolate's first request, and
 * whenever the configured value differs from the one last ensured, it is made the admin token
 * (lib/auth/bootstrap-admin.ts: a changed token revokes its predecessor; concurrent isolates
 * agree through a versioned record). If the previous token cannot be revoked, the request is
 * answered 503 with a Status and the next request tries again: the rotation never completes
 * silently with the old token still valid. A token an earlier rotation retired (an isolate of the
 * previous deployment, or an old value set again) is not registered; that is logged as an error
 * once per isolate and the token gets 401.
 */
import { ensureBootstrapAdmin } from '../lib/auth/bootstrap-admin.ts'
import { serviceUnavailable } from '../lib/errors.ts'
import type { Logger } from '../lib/log.ts'
import type { KvStore } from '../lib/store/types.ts'
import { json } from './api/respond.ts'

export type AdminGate = (
  kv: KvStore,
  token: string | undefined,
  log: Logger,
  now?: Date
) => Promise<Response | undefined>

/** A gate with its own memory of the token ensured (one per isolate). */
export function createAdminGate(): AdminGate {
  let ensuredFor: string | undefined
  return async (kv, token, log, now = new Date()) => {
    if (!token || ensuredFor === token) return undefined
    try {
      const outcome = await ensureBootstrapAdmin(kv, token, now)
      if (outcome === 'retired')
        log.error(
          'ADMIN_TOKEN was retired by a later rotation and is not accepted; set a fresh one (wrangler secret put ADMIN_TOKEN)'
        )
      else if (outcome === 'rotated') log.warn('admin token rotated: the previous one is revoked')
      ensuredFor = token
      return undefined
    } catch (e) {
      log.error('admin token rotation incomplete; retrying on the next request', { error: e })
      const err = serviceUnavailable(
        'the admin token rotation is incomplete: the previous admin token could not be revoked yet; retry shortly'
      )
      return json(err.toStatus(), err.code)
    }
  }
}
