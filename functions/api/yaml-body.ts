/**
 * YAML request bodies (`application/yaml`, and apply configurations). The YAML composer recurses
 * once per nesting level and overflows the stack a few hundred levels down (once seen taking the
 * whole process down with a fatal out-of-memory in the regexp compiler), so before composing,
 * `yamlDepthBound` runs the library's lexer (which does not recurse) over the text and bounds the
 * nesting: flow collections count one level each, block nodes one level per column they start
 * right of their parent (plus one for a sequence at its parent key's column). The bound is never
 * below the true depth, at most a level or two above it. After composing, aliases and merge keys
 * (`<<`, honoured as kube's YAML decoder does) are expanded into a plain JSON copy, measured on the
 * way so an alias-heavy document cannot expand past the body limit.
 */
import { CST, isScalar, Lexer, parseDocument, visit } from 'yaml'
import { ApiError, badRequest, tooLarge } from '../../lib/errors.ts'
import {
  bodyTooDeep,
  MANAGED_FIELDS_EXTRA_DEPTH,
  MAX_NESTING_DEPTH,
  nestedTooDeep,
} from '../../lib/patch/json-limits.ts'
import { measureJson } from '../../lib/patch/json-measure.ts'

/** Aliases a document may use (the composer also refuses alias expansion that grows too fast). */
const MAX_ALIAS_COUNT = 100

type Column = { col: number; seq: boolean }

/** Lexer tokens that stand for no source text. */
const CONTROL = new Set(['doc-mode', 'byte-order-mark', 'flow-error-end'])

class DepthScan {
  stack: Column[] = []
  flow = 0
  col = 0
  lineStart = true
  max = 0

  /** A node starting at the current column; flow collections are counted by `flow` instead. */
  node(seq: boolean, push = true): void {
    if (this.flow > 0) return
    const { stack, col } = this
    if (this.lineStart) {
      while ((stack.at(-1)?.col ?? -1) > col) stack.pop()
      const top = stack.at(-1)
      if (top && top.col === col && top.seq && !seq) stack.pop()
      this.lineStart = false
    }
    const top = stack.at(-1)
    if (push && (!top || col > top.col || (col === top.col && seq && !top.seq)))
      stack.push({ col, seq })
  }

  advance(text: string): void {
    const nl = text.lastIndexOf('\n')
    this.col = nl < 0 ? this.col + text.length : text.length - nl - 1
    if (nl >= 0 && this.flow === 0) this.lineStart = true
  }

  measure(): number {
    this.max = Math.max(this.max, this.stack.length + this.flow)
    return this.max
  }
}

/** Steps the scan over one lexer token that is not a scalar's source. */
function scanToken(s: DepthScan, type: ReturnType<typeof CST.tokenType>): void {
  switch (type) {
    case 'seq-item-ind':
      s.node(true)
      break
    case 'explicit-key-ind':
    case 'alias':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
    case 'block-scalar-header':
      s.node(false)
      break
    case 'flow-map-start':
    case 'flow-seq-start':
      s.node(false, false)
      s.flow++
      break
    case 'flow-map-end':
    case 'flow-seq-end':
      s.flow = Math.max(s.flow - 1, 0)
      break
    case 'flow-error-end':
      s.flow = 0
      break
    case 'doc-start':
    case 'doc-end':
      s.stack = []
      s.flow = 0
      break
    default:
  }
}

/**
 * An upper bound of the nesting depth of a YAML text, computed without recursion; stops early
 * once the bound passes `limit`.
 */
export function yamlDepthBound(text: string, limit = Number.POSITIVE_INFINITY): number {
  const s = new DepthScan()
  let scalarSource = false
  let blockScalar = false
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token)
    if (scalarSource) {
      scalarSource = false
      if (!blockScalar) s.node(false)
      blockScalar = false
      s.advance(token)
    } else if (type === 'scalar') scalarSource = true
    else {
      scanToken(s, type)
      if (type === 'block-scalar-header') blockScalar = true
      if (type === 'newline') {
        s.col = 0
        if (s.flow === 0) s.lineStart = true
      } else if (!CONTROL.has(type ?? '')) s.advance(token)
    }
    if (s.measure() > limit) break
  }
  return s.max
}

/**
 * Composes the document. The library's own duplicate-key check compares every key with every
 * earlier one (30,000 keys took 4 s of CPU), so it is off and duplicates are found here with one
 * set per mapping; they stay an error, as in kube's YAML decoder.
 */
function composeYaml(text: string): unknown {
  const doc = parseDocument(text, { merge: true, uniqueKeys: false })
  const [error] = doc.errors
  if (error) throw error
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>()
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined
        if (key === undefined || key === '<<') continue
        if (seen.has(key))
          throw badRequest(`error decoding YAML request body: mapping key "${key}" already defined`)
        seen.add(key)
      }
    },
  })
  return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
}

/**
 * Decodes a YAML body into plain JSON values (no shared members), or fails with 400 (malformed,
 * nested too deep) or 413 (aliases expand it past `maxBytes`).
 */
/** A body that is JSON (as most apply configurations are), read by JSON.parse; else undefined. */
function asJson(text: string): { value: unknown } | undefined {
  const start = text.trimStart()[0]
  if (start !== '{' && start !== '[') return undefined
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined // flow-style YAML that is not JSON: composed as YAML
  }
}

export function decodeYaml(text: string, maxBytes: number): unknown {
  // JSON first: JSON.parse is linear and does not recurse, has no aliases to expand past the body
  // size, and shares no members, so only the depth is left to check.
  const json = asJson(text)
  if (json) {
    if (nestedTooDeep(json.value)) throw bodyTooDeep('YAML')
    return json.value
  }
  const bound = MAX_NESTING_DEPTH + MANAGED_FIELDS_EXTRA_DEPTH + 1
  if (yamlDepthBound(text, bound) > bound) throw bodyTooDeep('YAML')
  let value: unknown
  try {
    value = composeYaml(text)
  } catch (e) {
    if (e instanceof ApiError) throw e
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e)
    throw badRequest(`error decoding YAML request body: ${why}`)
  }
  // The lexer bounded the depth; nestedTooDeep makes it exact.
  if (nestedTooDeep(value)) throw bodyTooDeep('YAML')
  const m = measureJson(value, { maxBytes })
  if (m.exceeded === 'bytes')
    throw tooLarge(
      `the YAML request body expands (through its aliases) to more than ${maxBytes} bytes of JSON`
    )
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}
