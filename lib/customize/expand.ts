/**
 * Parameter expansion (reference §4): `%(name)` becomes the value of the parameter `name` — the
 * destination Location's label `name`, else its annotation `name` (`locationParameters`). Our
 * rules, stricter than the original's quirks: `%%` is an escape for one literal `%` (the API doc's
 * rule; the original code kept `%%`); a `%` followed by anything else, or ending the string, stays
 * as it is (so `50%` needs no escape); a name is everything up to the next `)`, so label keys like
 * `topology.kubernetes.io/zone` work. An undefined name, an empty `%()` and an unterminated `%(`
 * are not silently kept (the original left `%(name)`, or ate the rest of the string): they are
 * collected, and the caller leaves the whole object uncustomized and reports them.
 * `expandLeaves` expands every string value of a JSON value (map values and list items, at any
 * depth), never map keys, and returns a new value; the input is not changed.
 */
import type { JsonValue, KubeObject } from '../kube/types.ts'

/** The value of a parameter, or undefined when the destination does not define it. */
export type Parameters = (name: string) => string | undefined

/** What went wrong while expanding; both lists sorted and without duplicates. */
export type ExpansionProblems = { undefinedNames: string[]; syntax: string[] }

export type Expanded<T> = { value: T; problems: ExpansionProblems }

/** Labels first, then annotations, of a Location (or any object). */
export function locationParameters(location: KubeObject): Parameters {
  const labels = location.metadata.labels ?? {}
  const annotations = location.metadata.annotations ?? {}
  return (name) =>
    Object.hasOwn(labels, name)
      ? labels[name]
      : Object.hasOwn(annotations, name)
        ? annotations[name]
        : undefined
}

type Sink = { undefinedNames: Set<string>; syntax: Set<string> }

function expandInto(text: string, params: Parameters, sink: Sink): string {
  if (!text.includes('%')) return text
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    const next = text[i + 1]
    if (c !== '%' || (next !== '%' && next !== '(')) {
      out += c
      i++
      continue
    }
    if (next === '%') {
      out += '%'
      i += 2
      continue
    }
    const close = text.indexOf(')', i + 2)
    if (close < 0) {
      sink.syntax.add(`unterminated "%(" in ${JSON.stringify(text)}`)
      return text
    }
    const name = text.slice(i + 2, close)
    const value = name === '' ? undefined : params(name)
    if (name === '') sink.syntax.add(`empty parameter name "%()" in ${JSON.stringify(text)}`)
    else if (value === undefined) sink.undefinedNames.add(name)
    out += value ?? text.slice(i, close + 1)
    i = close + 1
  }
  return out
}

const finish = (sink: Sink): ExpansionProblems => ({
  undefinedNames: [...sink.undefinedNames].sort(),
  syntax: [...sink.syntax].sort(),
})

/** Expands one string. */
export function expandString(text: string, params: Parameters): Expanded<string> {
  const sink: Sink = { undefinedNames: new Set(), syntax: new Set() }
  const value = expandInto(text, params, sink)
  return { value, problems: finish(sink) }
}

function walk(v: JsonValue, params: Parameters, sink: Sink): JsonValue {
  if (typeof v === 'string') return expandInto(v, params, sink)
  if (Array.isArray(v)) return v.map((x) => walk(x, params, sink))
  if (v === null || typeof v !== 'object') return v
  const out: { [k: string]: JsonValue } = {}
  for (const k of Object.keys(v)) {
    Object.defineProperty(out, k, {
      value: walk(v[k] as JsonValue, params, sink),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}

/** Expands every leaf string of a JSON value (not map keys) into a new value. */
export function expandLeaves<T extends JsonValue>(value: T, params: Parameters): Expanded<T> {
  const sink: Sink = { undefinedNames: new Set(), syntax: new Set() }
  const out = walk(value, params, sink) as T
  return { value: out, problems: finish(sink) }
}

export const hasProblems = (p: ExpansionProblems) =>
  p.undefinedNames.length > 0 || p.syntax.length > 0
