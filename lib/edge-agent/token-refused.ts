/**
 * What the agent says when the center refuses its edge token (401): the token was rotated (a new
 * bootstrap of its SyncTarget) or revoked, so polling again will not help until the edge gets the
 * new credential. The center client (center-client.ts) turns every 401 into this RemoteError, so
 * the poll loop's log line reads it in place of a bare `HTTP 401: Unauthorized`.
 */
import { RemoteError } from '../remote/remote-error.ts'

/** The explanation a refused token gets, after the request's name. */
export const TOKEN_REFUSED =
  "the center refused this edge's token (401): it was rotated or revoked; apply the edge's bootstrap manifests again (npm run edge:bootstrap -- ... --rotate prints new ones; under npm start, restart it)"

/** `err` explained when it is a 401, else `err` itself. */
export function explainRefusedToken(err: RemoteError, what: string): RemoteError {
  if (err.code !== 401) return err
  return new RemoteError(401, `${what}: ${TOKEN_REFUSED}`, {
    reason: err.reason,
    detail: err.detail,
    causes: err.causes,
    cause: err,
  })
}
