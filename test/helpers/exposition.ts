/**
 * A strict reader of the Prometheus text exposition format (0.0.4) for tests: every line is a
 * `# HELP`, a `# TYPE` or a sample; every sample must belong to a family whose `# TYPE` came
 * before it (a histogram's samples are `<name>_bucket` with `le`, `_sum` and `_count`); label
 * values are unescaped; a family is declared once. Throws on anything else, naming the line.
 * `value(name, labels)` finds one sample by its exact label set.
 */

export type Sample = { name: string; labels: Record<string, string>; value: number }
export type Exposition = {
  types: Map<string, string>
  samples: Sample[]
  value(name: string, labels?: Record<string, string>): number | undefined
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const SAMPLE = new RegExp(`^(${NAME})(\\{(.*)\\})? (\\S+)$`)
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/

function parseLabels(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {}
  let rest = text
  while (rest.length > 0) {
    const m = LABEL.exec(rest)
    if (!m) throw new Error(`bad labels in line: ${line}`)
    const [all, key, raw] = m as unknown as [string, string, string]
    if (key in out) throw new Error(`label ${key} repeated in line: ${line}`)
    out[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    rest = rest.slice(all.length)
  }
  return out
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return types.get(name) === 'histogram' ? undefined : name
  for (const suffix of ['_bucket', '_sum', '_count']) {
    const base = name.slice(0, -suffix.length)
    if (name.endsWith(suffix) && types.get(base) === 'histogram') return base
  }
  return undefined
}

const num = (v: string) => (v === '+Inf' ? Infinity : v === '-Inf' ? -Infinity : Number(v))

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>()
  const samples: Sample[] = []
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline')
  for (const line of text.slice(0, -1).split('\n')) {
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      if (types.has(type[1] as string)) throw new Error(`family declared twice: ${line}`)
      types.set(type[1] as string, type[2] as string)
      continue
    }
    if (line.startsWith('# HELP ') || line.startsWith('# ')) continue
    const m = SAMPLE.exec(line)
    if (!m) throw new Error(`not a sample line: ${JSON.stringify(line)}`)
    const name = m[1] as string
    const family = familyOf(name, types)
    if (!family) throw new Error(`sample of an undeclared family: ${line}`)
    const labels = parseLabels(m[3] ?? '', line)
    if (name.endsWith('_bucket') && !('le' in labels)) throw new Error(`bucket without le: ${line}`)
    const value = num(m[4] as string)
    if (Number.isNaN(value) && m[4] !== 'NaN') throw new Error(`bad value: ${line}`)
    samples.push({ name, labels, value })
  }
  const key = (l: Record<string, string>) =>
    JSON.stringify(Object.entries(l).sort(([a], [b]) => (a < b ? -1 : 1)))
  return {
    types,
    samples,
    value(name, labels = {}) {
      const k = key(labels)
      return samples.find((s) => s.name === name && key(s.labels) === k)?.value
    },
  }
}
