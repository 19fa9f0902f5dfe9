/**
 * Decoding a stored object once, where a step reads it from the hub, into the type its zod schema
 * infers: `decodeObject(schema, obj)` gives the typed value or the problem (the object's identity
 * and each zod issue with its path), never a cast. Unknown fields are STRIPPED, not rejected (the
 * edge schemas are plain `z.object`s, zod's default strip; metadata is loose and kept whole), so
 * an object an older release stored with a field since removed still decodes; a field of the wrong
 * type or a broken rule (say a label selector stored before it was validated) does not.
 * `reportInvalid` logs a problem as one JSON warning naming the step and the object's key; the
 * caller then skips the object, so one bad object never stops its siblings.
 */
import type { z } from 'zod'
import { CLUSTER_ANNOTATION, type KubeObject, type ObjectMeta } from '../kube/types.ts'
import type { Logger } from '../log.ts'

/** A stored object as its schema types it (`T`), with the hub's ObjectMeta as metadata. */
export type DecodedAs<T> = Omit<T, 'metadata'> & { metadata: ObjectMeta }

/** A stored object as the schema `S` types it. */
export type Decoded<S extends z.ZodType> = DecodedAs<z.output<S>>

export type DecodeIssue = { path: string; message: string }

export type DecodeProblem = {
  /** The object as stored: its identity (for a log line or a status write), nothing else read. */
  object: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>
  /** `<space id>/<namespace>/<name>` or `<space id>/<name>`. */
  key: string
  issues: DecodeIssue[]
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; problem: DecodeProblem }

/** Where an object lives: its space (the `kcp.io/cluster` annotation), namespace and name. */
export function objectKey(o: Pick<KubeObject, 'metadata'>): string {
  const m = o.metadata
  const space = m.annotations?.[CLUSTER_ANNOTATION] ?? ''
  return [space, ...(m.namespace ? [m.namespace] : []), m.name ?? ''].join('/')
}

const pathOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (at, p) => (typeof p === 'number' ? `${at}[${p}]` : `${at}${at ? '.' : ''}${String(p)}`),
    ''
  ) || '(object)'

export function decodeObject<T extends object>(
  schema: z.ZodType<T>,
  obj: KubeObject
): DecodeResult<DecodedAs<T>> {
  const parsed = schema.safeParse(obj)
  if (parsed.success) {
    const value: DecodedAs<T> = Object.assign(parsed.data, { metadata: obj.metadata })
    return { ok: true, value }
  }
  const issues = parsed.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message }))
  const { apiVersion, kind, metadata } = obj
  return {
    ok: false,
    problem: { object: { apiVersion, kind, metadata }, key: objectKey(obj), issues },
  }
}

/** One line naming every issue: `spec.locationSelectors[0]: Invalid input; ...`. */
export function describeIssues(problem: DecodeProblem): string {
  return problem.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
}

/** Logs an invalid stored object the step skips: one JSON warning with step, key and issues. */
export function reportInvalid(log: Logger, step: string, problem: DecodeProblem): void {
  log.warn('invalid stored object skipped', {
    step,
    kind: problem.object.kind,
    key: problem.key,
    issues: problem.issues,
  })
}

/**
 * Decodes each object; the invalid ones go to `onInvalid` and are left out, the others keep their
 * order.
 */
export function decodeEach<T extends object>(
  schema: z.ZodType<T>,
  objects: readonly KubeObject[],
  onInvalid: (problem: DecodeProblem) => void
): DecodedAs<T>[] {
  const out: DecodedAs<T>[] = []
  for (const o of objects) {
    const res = decodeObject(schema, o)
    if (res.ok) out.push(res.value)
    else onInvalid(res.problem)
  }
  return out
}
