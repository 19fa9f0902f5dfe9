/**
 * The one JSONPath parser, for Customizer replacement paths (reference §2.4; set.ts) and the
 * paths of status summaries (lib/summarize/aggregate.ts; read.ts), both walked by select.ts. A
 * small hand-written scanner reads a path into segments of selectors. A path starts with `$` (the
 * object) and is followed by segments with no blank space between them: `.name` (a member;
 * letters, digits, `_` and `-`, not starting with a digit or `-`), `.0` (an array index, digits
 * only), `.*` (every member or element), `[...]` (a comma-separated list of selectors, blank space
 * allowed around them: `'name'` or `"name"` with JSON escapes, an integer index counting from the
 * end when negative, `*`, and slices `start:end:step` as in RFC 9535) and `..` followed by a name,
 * `*` or a bracket (the descendant segment: the node and everything under it). Filters (`[?...]`)
 * and anything else are refused with a JsonPathError naming the position. A path is definite when
 * every segment is a child segment with one name or index: only those create missing members when
 * set (set.ts).
 */

export type Selector =
  | { kind: 'name'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'slice'; start: number | undefined; end: number | undefined; step: number | undefined }

export type Segment = { descendant: boolean; selectors: Selector[] }

export type JsonPath = { text: string; segments: Segment[] }

/** A path that is not in the subset; `position` is the 0-based offset where reading failed. */
export class JsonPathError extends Error {
  readonly path: string
  readonly position: number
  constructor(path: string, position: number, what: string) {
    super(`invalid JSONPath ${JSON.stringify(path)} at position ${position}: ${what}`)
    this.name = 'JsonPathError'
    this.path = path
    this.position = position
  }
}

const NAME_START = /[A-Za-z_\u0080-\uffff]/
const NAME_CHAR = /[A-Za-z0-9_\-\u0080-\uffff]/
const INTEGER = /^-?(0|[1-9][0-9]*)/
const ESCAPES: Record<string, string> = {
  '\\': '\\',
  '/': '/',
  "'": "'",
  '"': '"',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

/** A cursor over the path text with the few reads the grammar needs. */
function scanner(text: string) {
  let pos = 0
  const fail = (what: string, at = pos): never => {
    throw new JsonPathError(text, at, what)
  }
  const peek = (n = 0) => text[pos + n] ?? ''
  const skipBlank = () => {
    while (/[ \t\n\r]/.test(peek())) pos++
  }
  const integer = (): number | undefined => {
    const m = INTEGER.exec(text.slice(pos))
    if (!m) return undefined
    const n = Number(m[0])
    if (!Number.isSafeInteger(n)) fail('integer out of range')
    pos += m[0].length
    return n
  }
  const name = (): string => {
    const start = pos
    if (!NAME_START.test(peek())) fail('expected a member name, an index or "*"')
    while (NAME_CHAR.test(peek())) pos++
    return text.slice(start, pos)
  }
  const quoted = (): string => {
    const quote = peek()
    const start = pos
    pos++
    let out = ''
    while (peek() !== quote) {
      const c = peek()
      if (c === '') fail('unterminated string', start)
      if (c === '\\') {
        const e = peek(1)
        if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(pos + 2, pos + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(pos + 2, pos + 6), 16))
          pos += 6
          continue
        }
        const r = ESCAPES[e]
        if (r === undefined) fail(`invalid escape "\\${e}"`)
        out += r
        pos += 2
        continue
      }
      out += c
      pos++
    }
    pos++
    return out
  }
  return {
    get pos() {
      return pos
    },
    peek,
    fail,
    skipBlank,
    integer,
    name,
    quoted,
    eat(s: string): boolean {
      if (!text.startsWith(s, pos)) return false
      pos += s.length
      return true
    },
  }
}

type Scanner = ReturnType<typeof scanner>

/** One selector inside brackets: a quoted name, `*`, an index or a slice. */
function bracketSelector(s: Scanner): Selector {
  const c = s.peek()
  if (c === "'" || c === '"') return { kind: 'name', name: s.quoted() }
  if (s.eat('*')) return { kind: 'wildcard' }
  if (c === '?') s.fail('filter selectors are not supported')
  const start = s.integer()
  s.skipBlank()
  if (!s.eat(':')) {
    if (start === undefined) s.fail('expected a quoted name, an index, a slice or "*"')
    return { kind: 'index', index: start as number }
  }
  s.skipBlank()
  const end = s.integer()
  s.skipBlank()
  let step: number | undefined
  if (s.eat(':')) {
    s.skipBlank()
    step = s.integer()
  }
  return { kind: 'slice', start, end, step }
}

function bracket(s: Scanner): Selector[] {
  const selectors: Selector[] = []
  s.skipBlank()
  if (s.peek() === ']') s.fail('empty brackets')
  for (;;) {
    selectors.push(bracketSelector(s))
    s.skipBlank()
    if (s.eat(']')) return selectors
    if (!s.eat(',')) s.fail(s.peek() === '' ? 'missing "]"' : 'expected "," or "]"')
    s.skipBlank()
  }
}

/** What follows `.` or `..`: a name, `*`, or (after `.` only) digits as an index. */
function dotted(s: Scanner, descendant: boolean): Selector[] {
  if (s.eat('*')) return [{ kind: 'wildcard' }]
  if (descendant && s.eat('[')) return bracket(s)
  if (!descendant && /[0-9]/.test(s.peek())) {
    const at = s.pos
    const index = s.integer()
    if (index === undefined || /[0-9]/.test(s.peek())) s.fail('invalid index', at)
    return [{ kind: 'index', index: index as number }]
  }
  return [{ kind: 'name', name: s.name() }]
}

/** Parses a path of the subset; throws JsonPathError. */
export function parseJsonPath(text: string): JsonPath {
  const s = scanner(text)
  if (!s.eat('$')) s.fail('a path must start with "$"')
  const segments: Segment[] = []
  while (s.peek() !== '') {
    if (s.eat('..')) segments.push({ descendant: true, selectors: dotted(s, true) })
    else if (s.eat('.')) segments.push({ descendant: false, selectors: dotted(s, false) })
    else if (s.eat('[')) segments.push({ descendant: false, selectors: bracket(s) })
    else s.fail(`unexpected ${JSON.stringify(s.peek())}`)
  }
  return { text, segments }
}

/** Whether every segment names exactly one member or index (so setting it may create members). */
export function isDefinite(path: JsonPath): boolean {
  return path.segments.every(
    (seg) =>
      !seg.descendant &&
      seg.selectors.length === 1 &&
      (seg.selectors[0]?.kind === 'name' || seg.selectors[0]?.kind === 'index')
  )
}
