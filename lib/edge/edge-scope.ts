/**
 * Where edge credentials reach. An edge credential stands for one mailbox (principal `edge:<name>`,
 * kind `edge`, the single scope `root:espw:<name>`) and may call only that mailbox's part of the
 * edge API, `/edge/v1/mailboxes/<name>/...`: the hub API (even its own mailbox space through
 * `/clusters/...`), the reconcile hooks, the bootstrap endpoint and other mailboxes are 403. Users
 * may not call the edge API at all; admins may call all of it (handy for debugging an agent's
 * view). The app's auth middleware applies `authorizeRoute` to every authenticated request, so no
 * handler can forget it; the mailbox handlers also check `authorizeMailbox` on their parameter.
 * Paths are compared as sent (after URL normalisation of `.` and `..`), never percent-decoded, so
 * an encoded slash cannot smuggle another mailbox in.
 */
import type { Principal } from '../auth/tokens.ts'
import { forbidden } from '../errors.ts'
import { mailboxOfSpacePath, mailboxSpacePath } from '../reconcile/keys.ts'
import { EDGE_API_PREFIX } from './protocol.ts'

const MAILBOXES = `${EDGE_API_PREFIX}/mailboxes/`

/** The principal an edge credential for `mailbox` is registered with. */
export function edgePrincipal(mailbox: string): Principal {
  return { name: `edge:${mailbox}`, kind: 'edge', spaces: [mailboxSpacePath(mailbox)] }
}

/** The mailbox name an edge principal stands for; undefined for others or a malformed scope. */
export function edgeMailboxOf(p: Principal): string | undefined {
  if (p.kind !== 'edge' || p.spaces.length !== 1) return undefined
  return mailboxOfSpacePath(p.spaces[0] ?? '')
}

function isEdgeApi(pathname: string): boolean {
  return pathname === EDGE_API_PREFIX || pathname.startsWith(`${EDGE_API_PREFIX}/`)
}

/** The raw mailbox segment of `/edge/v1/mailboxes/<segment>[/...]`, else undefined. */
function mailboxSegment(pathname: string): string | undefined {
  if (!pathname.startsWith(MAILBOXES)) return undefined
  const segment = pathname.slice(MAILBOXES.length).split('/')[0]
  return segment || undefined
}

/** 403 unless `p` may call `pathname` at all (see the header). */
export function authorizeRoute(p: Principal, pathname: string): void {
  if (p.kind === 'admin') return
  if (p.kind !== 'edge') {
    if (isEdgeApi(pathname))
      throw forbidden(
        `${p.kind} "${p.name}" cannot call the edge API (${EDGE_API_PREFIX}): it serves edge credentials and admins only`
      )
    return
  }
  const own = edgeMailboxOf(p)
  if (!own) throw forbidden(`edge credential "${p.name}" has no usable mailbox scope`)
  if (mailboxSegment(pathname) === own) return
  throw forbidden(
    `edge credential "${p.name}" may only call ${MAILBOXES}${own}/...; ${pathname} is outside its mailbox`
  )
}

/** 403 unless `p` is an admin or the edge credential of `mailbox`. */
export function authorizeMailbox(p: Principal, mailbox: string): void {
  if (p.kind === 'admin') return
  if (p.kind === 'edge' && edgeMailboxOf(p) === mailbox) return
  throw forbidden(`${p.kind} "${p.name}" cannot use mailbox "${mailbox}"`)
}
