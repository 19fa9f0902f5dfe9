/**
 * What the token CLI prints: the token list as a table (NAME, USER, TYPE, SPACES, EXPIRES — time
 * left or `expired` — and AGE), and for `issue --kubeconfig-out` a kubeconfig for the new token:
 * one context per plain space path it reaches (the first is current; a subtree `path:*` gets no
 * context, as it does not reach `path` itself; an admin token gets `root`), the hub's CA when
 * given (infra/local/kubeconfig.ts builds it). Pure.
 */
import { humanDuration, parseTime } from '../../lib/kube/printers/duration.ts'
import { renderKubeconfig } from '../local/kubeconfig.ts'
import type { Issued, TokenObject } from './call.ts'
import type { Connection } from './connection.ts'

function expires(t: TokenObject, now: Date): string {
  const at = parseTime(t.status?.expirationTimestamp)
  if (at === undefined) return '<none>'
  return at <= now.getTime() ? 'expired' : humanDuration(at - now.getTime())
}

export function renderTokenTable(items: readonly TokenObject[], now: Date): string {
  const rows = items.map((t) => [
    t.metadata.name ?? '',
    t.spec?.user ?? '',
    t.spec?.type ?? '',
    t.spec?.type === 'admin' ? '*' : (t.spec?.spaces ?? []).join(','),
    expires(t, now),
    (() => {
      const created = parseTime(t.metadata.creationTimestamp)
      return created === undefined ? '<unknown>' : humanDuration(now.getTime() - created)
    })(),
  ])
  if (rows.length === 0) return 'No tokens.\n'
  const table = [['NAME', 'USER', 'TYPE', 'SPACES', 'EXPIRES', 'AGE'], ...rows]
  const widths = table[0]?.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length))) ?? []
  return table
    .map((r) =>
      r.map((cell, i) => (i < r.length - 1 ? cell.padEnd((widths[i] ?? 0) + 3) : cell)).join('')
    )
    .join('\n')
    .concat('\n')
}

export function issuedKubeconfig(conn: Connection, issued: Issued): string {
  const spec = issued.object.spec ?? {}
  const spaces =
    spec.type === 'admin' ? ['root'] : (spec.spaces ?? []).filter((s) => !s.endsWith(':*'))
  return renderKubeconfig({
    hubUrl: conn.hubUrl,
    adminToken: issued.token,
    user: `${issued.name}-token`,
    ...(conn.caPem ? { caPem: conn.caPem } : {}),
    spaces,
  })
}
