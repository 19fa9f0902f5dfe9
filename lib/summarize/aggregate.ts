/**
 * A Summarizer's results over the copies of the objects it selects (one entry per (object,
 * destination)). Each copy is classified with the Summarizer's own staleness threshold, else the
 * hub's (`defaultThresholdMs`: the threshold the hub is configured with, liveness.ts)
 * (copy-condition.ts): stale, pending and failed copies are counted apart; the copies with a
 * current report from a live agent are grouped by the `groupBy` keys — a JSONPath over the
 * reported object (one value: a string as is, anything else as JSON; several: their JSON array;
 * none: no value) or a label of the destination's Location — and each group gets its count and
 * the aggregations: Count (copies, or with a JSONPath the copies where it selects a non-null
 * value), Sum (0 when there is nothing to add), Min and Max (no value when there is nothing) over
 * the numbers the JSONPath selects (other values are ignored). Groups are sorted by their keys and
 * at most MAX_GROUPS are listed, the rest counted in `groupsOmitted`. Pure.
 */
import { MAX_GROUPS, type SummarizerSpec, type SummaryResult } from '../apis/edge-summary.ts'
import { type JsonPath, parseJsonPath } from '../jsonpath/parse.ts'
import { readJsonPath } from '../jsonpath/read.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { type CopyFacts, copyCondition } from './copy-condition.ts'
import { isLive, STALE_AFTER_MS } from './liveness.ts'

export type SummarizedCopy = Omit<CopyFacts, 'live'> & {
  /** Labels of the destination's Location. */
  locationLabels: Record<string, string>
}

type Group = { groupedBy: { name: string; value?: string }[]; copies: KubeObject[] }

/** A parsed path, or undefined when it is not one (an object stored before validation). */
function parsed(text: string | undefined): JsonPath | undefined {
  if (text === undefined) return undefined
  try {
    return parseJsonPath(text)
  } catch {
    return undefined
  }
}

const read = (path: JsonPath | undefined, obj: KubeObject): JsonValue[] =>
  path ? readJsonPath(path, obj as unknown as JsonValue) : []

function keyValue(values: JsonValue[]): string | undefined {
  if (values.length === 0) return undefined
  if (values.length > 1) return JSON.stringify(values)
  const v = values[0]
  return typeof v === 'string' ? v : JSON.stringify(v)
}

function aggregate(
  a: SummarizerSpec['aggregations'][number],
  path: JsonPath | undefined,
  copies: KubeObject[]
): { name: string; value?: number } {
  if (a.type === 'Count') {
    const n = path
      ? copies.filter((c) => read(path, c).some((v) => v !== null)).length
      : copies.length
    return { name: a.name, value: n }
  }
  const numbers = copies.flatMap((c) =>
    read(path, c).filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
  )
  if (a.type === 'Sum') return { name: a.name, value: numbers.reduce((s, n) => s + n, 0) }
  if (numbers.length === 0) return { name: a.name }
  return { name: a.name, value: a.type === 'Min' ? Math.min(...numbers) : Math.max(...numbers) }
}

export function summarize(
  spec: SummarizerSpec,
  copies: readonly SummarizedCopy[],
  nowMs: number,
  defaultThresholdMs: number = STALE_AFTER_MS
): Omit<SummaryResult, 'summarizerGeneration' | 'objects'> {
  const own = spec.stalenessThresholdSeconds
  const thresholdMs = own === undefined ? defaultThresholdMs : own * 1000
  const groupBy = (spec.groupBy ?? []).map((g) => ({ ...g, path: parsed(g.jsonPath) }))
  const aggregations = spec.aggregations.map((a) => ({ a, path: parsed(a.jsonPath) }))
  const counts = { pending: 0, failed: 0, stale: 0 }
  const groups = new Map<string, Group>()
  for (const copy of copies) {
    const c = copyCondition({ ...copy, live: isLive(copy.beatAt, nowMs, thresholdMs) })
    if (c.state === 'stale' || c.state === 'pending' || c.state === 'failed') {
      counts[c.state]++
      continue
    }
    if (!c.reported) continue
    const reported = c.reported
    const groupedBy = groupBy.map((g) => {
      const value =
        g.locationLabel !== undefined
          ? copy.locationLabels[g.locationLabel]
          : keyValue(read(g.path, reported))
      return value === undefined ? { name: g.name } : { name: g.name, value }
    })
    const key = canonicalJson(groupedBy)
    const group = groups.get(key) ?? { groupedBy, copies: [] }
    group.copies.push(reported)
    groups.set(key, group)
  }
  const sorted = [...groups.keys()].sort().map((k) => groups.get(k) as Group)
  const listed = sorted.slice(0, MAX_GROUPS).map((g) => ({
    groupedBy: g.groupedBy,
    count: g.copies.length,
    aggregates: aggregations.map(({ a, path }) => aggregate(a, path, g.copies)),
  }))
  const reported = sorted.reduce((n, g) => n + g.copies.length, 0)
  return {
    copies: copies.length,
    reported,
    ...counts,
    groups: listed,
    ...(sorted.length > MAX_GROUPS ? { groupsOmitted: sorted.length - MAX_GROUPS } : {}),
  }
}
