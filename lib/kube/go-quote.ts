/**
 * Go's text rendering of strings, for messages that must read as kube-apiserver's: `isGoPrint` is
 * unicode.IsPrint (letters, marks, numbers, punctuation, symbols and the ASCII space), `goQuote`
 * is strconv.Quote (`%q`: printable runes as they are, `\n`-style escapes, `\x00` below space,
 * `\u00a0` and `\U0001f000` for other unprintable runes). A lone UTF-16 surrogate, which Go
 * would have decoded as U+FFFD, is rendered as U+FFFD.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u

const ESCAPES: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
}

/** The rune Go sees for one code point of a JS string. */
const goRune = (ch: string): string => {
  const cp = ch.codePointAt(0) ?? 0
  return cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch
}

/** Go's unicode.IsPrint for one character (a code point). */
export function isGoPrint(ch: string): boolean {
  return PRINTABLE.test(goRune(ch))
}

/** Go's strconv.Quote. */
export function goQuote(s: string): string {
  let out = '"'
  for (const raw of s) {
    const ch = goRune(raw)
    const cp = ch.codePointAt(0) ?? 0
    const hex = cp.toString(16)
    if (ESCAPES[ch] !== undefined) out += ESCAPES[ch]
    else if (PRINTABLE.test(ch)) out += ch
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex.padStart(2, '0')}`
    else if (cp < 0x10000) out += `\\u${hex.padStart(4, '0')}`
    else out += `\\U${hex.padStart(8, '0')}`
  }
  return `${out}"`
}

/** The UTF-8 length of a string, in bytes (Go's len); a lone surrogate counts as U+FFFD's 3. */
export function utf8Length(s: string): number {
  let bytes = 0
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
  }
  return bytes
}
