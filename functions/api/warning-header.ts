/**
 * `Warning` response headers as kube-apiserver writes them (k8s.io/apimachinery/pkg/util/net
 * NewWarningHeader, k8s.io/apiserver/pkg/endpoints/filters/warning.go): `299 - "<text>"` with `"`
 * and `\` backslash-escaped (RFC 7234's quoted-string), duplicates and empty texts dropped, a text
 * with a control character (Go's unicode.IsControl: C0, DEL, C1) dropped, and once the texts
 * together pass 4096 characters each is cut to 256 and no more are added past 4096. Go writes
 * the text's UTF-8 bytes into the header as they are; a fetch `Headers` value holds bytes as
 * characters U+0000..U+00FF, so the UTF-8 bytes are spelled that way — never a raw character above
 * U+00FF (which `Headers` refuses with a TypeError) and never a raw CR or LF.
 */

/** Characters of warning text written in full; past it, texts are truncated (kube's limits). */
export const TRUNCATE_AT_TOTAL_CHARS = 4 * 1024
export const TRUNCATE_ITEM_CHARS = 256

/** Go's unicode.IsControl: U+0000..U+001F and U+007F..U+009F. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true
  }
  return false
}

const ENCODER = new TextEncoder()

/** A string's UTF-8 bytes as a header value (one character per byte; lone surrogates → U+FFFD). */
function utf8Bytes(s: string): string {
  let out = ''
  for (const b of ENCODER.encode(s)) out += String.fromCharCode(b)
  return out
}

function headerOf(chars: string[]): string {
  const quoted = chars.map((c) => (c === '"' || c === '\\' ? `\\${c}` : c)).join('')
  return utf8Bytes(`299 - "${quoted}"`)
}

/** The `Warning` header values for `warnings`, in order. */
export function warningHeaders(warnings: readonly string[]): string[] {
  const texts: string[][] = []
  const seen = new Set<string>()
  for (const w of warnings) {
    if (w === '' || seen.has(w)) continue
    seen.add(w)
    if (!hasControl(w)) texts.push([...w])
  }
  const total = texts.reduce((n, t) => n + t.length, 0)
  if (total <= TRUNCATE_AT_TOTAL_CHARS) return texts.map(headerOf)
  const out: string[] = []
  let written = 0
  for (const t of texts) {
    if (written >= TRUNCATE_AT_TOTAL_CHARS) break
    const cut = t.slice(0, TRUNCATE_ITEM_CHARS)
    written += cut.length
    out.push(headerOf(cut))
  }
  return out
}
