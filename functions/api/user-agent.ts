/**
 * The field manager kube records for a write that names none: the client's User-Agent up to its
 * first `/` (so `OpenAPI-Generator/22.6.0/python` is `OpenAPI-Generator`, `rest-client/2.1` is
 * `rest-client`), without unprintable characters (Go's unicode.IsPrint), at most 128 bytes of
 * UTF-8 — apiserver's prefixFromUserAgent. An empty result leaves the caller's default.
 */
import { isGoPrint, utf8Length } from '../../lib/kube/go-quote.ts'

const MAX_FIELD_MANAGER = 128

export function managerFromUserAgent(userAgent: string | null | undefined): string | undefined {
  const prefix = (userAgent ?? '').split('/')[0] ?? ''
  let out = ''
  let bytes = 0
  for (const ch of prefix) {
    if (!isGoPrint(ch)) continue
    const size = utf8Length(ch)
    if (bytes + size > MAX_FIELD_MANAGER) break
    out += ch
    bytes += size
  }
  return out === '' ? undefined : out
}
