/**
 * Warning header values (functions/api/warning-header.ts) as kube-apiserver writes them: quoted
 * with `"` and `\` escaped, UTF-8 bytes spelled one per character (so a fetch `Headers` takes
 * them), control characters dropped with their warning, duplicates once, long lists truncated.
 */
import { describe, expect, it } from 'vitest'
import {
  TRUNCATE_AT_TOTAL_CHARS,
  TRUNCATE_ITEM_CHARS,
  warningHeaders,
} from '../../../functions/api/warning-header.ts'

const utf8Of = (header: string) =>
  new TextDecoder().decode(Uint8Array.from(header, (c) => c.charCodeAt(0)))

describe('warningHeaders', () => {
  it('quotes the text, escaping " and \\ only', () => {
    expect(warningHeaders(['unknown field "a\\b"'])).toEqual(['299 - "unknown field \\"a\\\\b\\""'])
  })

  it('spells non-Latin-1 text as its UTF-8 bytes, which Headers accepts', () => {
    const [h] = warningHeaders(['unknown field "\ufffd\ufffd" and é and 日本'])
    expect(h).toBeDefined()
    expect([...(h ?? '')].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true)
    expect(() => new Headers({ Warning: h ?? '' })).not.toThrow()
    expect(utf8Of(h ?? '')).toBe('299 - "unknown field \\"\ufffd\ufffd\\" and é and 日本"')
  })

  it('turns a lone surrogate into U+FFFD', () => {
    expect(utf8Of(warningHeaders(['x\ud800y'])[0] ?? '')).toBe('299 - "x\ufffdy"')
  })

  it('drops a text with a control character (CR, LF, NUL, DEL, C1), as kube does', () => {
    expect(warningHeaders(['a\nb', 'a\rb', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'ok'])).toEqual([
      '299 - "ok"',
    ])
  })

  it('drops empty and repeated texts', () => {
    expect(warningHeaders(['', 'one', 'one', 'two'])).toEqual(['299 - "one"', '299 - "two"'])
  })

  it('truncates each text once the total passes the limit, and stops at the limit', () => {
    const long = Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(1000, 'x'))
    const headers = warningHeaders(long)
    expect(headers.length).toBe(Math.ceil(TRUNCATE_AT_TOTAL_CHARS / TRUNCATE_ITEM_CHARS))
    for (const h of headers) expect(h.length).toBe(TRUNCATE_ITEM_CHARS + '299 - ""'.length)
  })

  it('keeps texts whole below the limit', () => {
    const texts = ['a'.repeat(1000), 'b'.repeat(1000)]
    expect(warningHeaders(texts)).toEqual(texts.map((t) => `299 - "${t}"`))
  })
})
