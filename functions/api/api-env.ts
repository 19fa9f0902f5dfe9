/**
 * The hono environment of the hub's app (app.ts): what its middleware sets on every authenticated
 * request. Its own module so the route modules the app mounts (the edge API, the reconcile hooks,
 * the ops routes) type their handlers without importing the app that mounts them.
 */
import type { Principal } from '../../lib/auth/tokens.ts'
import type { AdmissionTicket } from '../../lib/edge/admission.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'

/**
 * Set for every authenticated path: its deps, its URL parsed once (ops-routes.ts), its principal;
 * and for a non-admin's watch, how its events are charged to its token's share (fair-share.ts);
 * for an admitted edge mailbox request, its ticket (functions/edge-api/admission.ts).
 */
export type ApiVariables = {
  deps: HubDeps
  url: URL
  principal: Principal
  pace?: (events: number) => number
  admission?: AdmissionTicket
}
export type ApiEnv = { Variables: ApiVariables }
