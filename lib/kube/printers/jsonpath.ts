/**
 * The JSONPath subset that CRD printer columns use, parsed once and evaluated on an object:
 * fields (`.spec.replicas`, `['tenancy\.kcp\.io/phase']`, a backslash escaping a dot), indexes
 * (`[0]`, `[-1]`), wildcards (`[*]`, `.*`) and equality filters (`[?(@.type=="Ready")]`, `!=`, or
 * bare `[?(@.field)]` for presence). Recursive descent, slices and unions are not supported:
 * `parseJsonPath` returns undefined for them, and for anything else it cannot read.
 */
import { dig, isRecord } from './fields.ts'

type Scalar = string | number | boolean | null

export type PathStep =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string; op: '==' | '!=' | 'exists'; value: Scalar }

/** Reads a dotted field name up to the next unescaped `.` or `[`. */
function readName(s: string, from: number): { name: string; end: number } {
  let name = ''
  let i = from
  while (i < s.length && s[i] !== '.' && s[i] !== '[') {
    if (s[i] === '\\' && i + 1 < s.length) i++
    name += s[i]
    i++
  }
  return { name, end: i }
}

/** Index of the `]` closing the bracket at `from`, skipping quoted text. */
function closingBracket(s: string, from: number): number {
  let quote = ''
  for (let i = from + 1; i < s.length; i++) {
    const c = s[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === ']') return i
  }
  return -1
}

function unquote(s: string): string | undefined {
  const q = s[0]
  if ((q !== '"' && q !== "'") || s.length < 2 || s[s.length - 1] !== q) return undefined
  return s.slice(1, -1).replace(/\\(.)/g, '$1')
}

function scalar(text: string): Scalar | undefined {
  const t = text.trim()
  const quoted = unquote(t)
  if (quoted !== undefined) return quoted
  if (t === 'true' || t === 'false') return t === 'true'
  if (t === 'null') return null
  const n = Number(t)
  return t !== '' && Number.isFinite(n) ? n : undefined
}

function filterStep(inner: string): PathStep | undefined {
  const m = /^\?\(\s*@\.([^=!\s)]+)\s*(?:(==|!=)\s*(.+?))?\s*\)$/.exec(inner)
  if (!m?.[1]) return undefined
  if (!m[2]) return { kind: 'filter', path: m[1], op: 'exists', value: null }
  const value = scalar(m[3] ?? '')
  return value === undefined
    ? undefined
    : { kind: 'filter', path: m[1], op: m[2] as '==' | '!=', value }
}

function bracketStep(inner: string): PathStep | undefined {
  const t = inner.trim()
  if (t === '*') return { kind: 'all' }
  if (/^-?\d+$/.test(t)) return { kind: 'index', index: Number(t) }
  const key = unquote(t)
  if (key !== undefined) return { kind: 'field', name: key }
  return t.startsWith('?') ? filterStep(t) : undefined
}

/** The steps of `expr` (with or without surrounding braces), or undefined when unsupported. */
export function parseJsonPath(expr: string): PathStep[] | undefined {
  const s = expr.trim().replace(/^\{(.*)\}$/s, '$1')
  const steps: PathStep[] = []
  let i = 0
  while (i < s.length) {
    if (s[i] === '[') {
      const end = closingBracket(s, i)
      const step = end < 0 ? undefined : bracketStep(s.slice(i + 1, end))
      if (!step) return undefined
      steps.push(step)
      i = end + 1
      continue
    }
    if (s[i] === '.') i++
    if (s[i] === '.') return undefined
    if (s[i] === '*') {
      steps.push({ kind: 'all' })
      i++
      continue
    }
    const { name, end } = readName(s, i)
    if (name) steps.push({ kind: 'field', name })
    i = end
  }
  return steps
}

function matches(item: unknown, step: Extract<PathStep, { kind: 'filter' }>): boolean {
  const v = dig(item, step.path)
  if (step.op === 'exists') return v !== undefined
  return step.op === '==' ? v === step.value : v !== step.value
}

/** What one step reaches from one value. */
function stepFrom(v: unknown, step: PathStep): unknown[] {
  switch (step.kind) {
    case 'field':
      return isRecord(v) && step.name in v ? [v[step.name]] : []
    case 'index': {
      if (!Array.isArray(v)) return []
      const i = step.index < 0 ? v.length + step.index : step.index
      return i >= 0 && i < v.length ? [v[i]] : []
    }
    case 'all':
      if (Array.isArray(v)) return v
      return isRecord(v) ? Object.values(v) : []
    default:
      return Array.isArray(v) ? v.filter((item) => matches(item, step)) : []
  }
}

/** Every value the steps reach from `root`, in document order. */
export function evaluateJsonPath(steps: PathStep[], root: unknown): unknown[] {
  return steps.reduce<unknown[]>((values, step) => values.flatMap((v) => stepFrom(v, step)), [root])
}
