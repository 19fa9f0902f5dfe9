/**
 * The field manager kube records for a write that names none: the client's User-Agent up to its
 * first `/` (so `OpenAPI-Generator/22.6.0/python` is `OpenAPI-Generator`, `rest-client/2.1` is
 * `rest-client`), without unprintable characters, at most 128 characters — apiserver's
 * prefixFromUserAgent. An empty result leaves the caller's default.
 */
const MAX_FIELD_MANAGER = 128

export function managerFromUserAgent(userAgent: string | null | undefined): string | undefined {
  const prefix = (userAgent ?? '').split('/')[0] ?? ''
  let out = ''
  for (const ch of prefix) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u.test(ch)) continue
    if (out.length + ch.length > MAX_FIELD_MANAGER) break
    out += ch
  }
  return out === '' ? undefined : out
}
