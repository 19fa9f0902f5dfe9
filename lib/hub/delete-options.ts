/**
 * kube's DeleteOptions of a delete or a collection delete, read as kube-apiserver's delete
 * handlers read them (apiserver pkg/endpoints/handlers/delete.go): from the body when there is
 * one (the query then counts for nothing and is not decoded), else from the query (decoded by the
 * caller's decoder), and then validated as apimachinery's ValidateDeleteOptions does: a
 * propagationPolicy other than Foreground, Background or Orphan, both orphanDependents and
 * propagationPolicy, or a dryRun value other than "All" is 422 Invalid (invalid-options.ts). A body
 * field of the wrong JSON type is 400 (kube's decoder fails there). The caller checks all of this
 * before anything is deleted.
 */
import { badRequest, type StatusCause } from '../errors.ts'
import { goQuote } from '../kube/go-quote.ts'
import { dryRunCauses, invalidOptions } from './invalid-options.ts'
import type { Propagation } from './write.ts'

/** A delete's options as the hub's delete (delete.ts) takes them. */
export type DeleteOptions = {
  propagationPolicy?: Propagation
  preconditions?: { uid?: string; resourceVersion?: string }
  dryRun: boolean
  baseUrl: string
}

/** The DeleteOptions of a query, decoded (first value of each parameter; every dryRun value). */
export type DeleteQuery = {
  gracePeriodSeconds?: number
  orphanDependents?: boolean
  propagationPolicy?: string
  dryRun?: string[]
}

type Raw = DeleteQuery & { preconditions?: { uid?: string; resourceVersion?: string } }

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan']

const typeError = (field: string, expected: string) =>
  badRequest(`error decoding DeleteOptions: ${field} must be ${expected}`)

function optional<T>(
  b: Record<string, unknown>,
  field: string,
  ok: (v: unknown) => v is T,
  expected: string
): T | undefined {
  const v = b[field]
  if (v === undefined || v === null) return undefined
  if (!ok(v)) throw typeError(field, expected)
  return v
}

const isString = (v: unknown): v is string => typeof v === 'string'
const isBool = (v: unknown): v is boolean => typeof v === 'boolean'
const isInt64 = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString)
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The fields of a DeleteOptions body, each of its JSON type or a 400. */
function fromBody(body: unknown): Raw {
  if (!isRecord(body)) {
    if (body === null) return {}
    throw badRequest('error decoding DeleteOptions: the body must be a JSON object')
  }
  const out: Raw = {}
  const grace = optional(body, 'gracePeriodSeconds', isInt64, 'an integer')
  if (grace !== undefined) out.gracePeriodSeconds = grace
  const orphan = optional(body, 'orphanDependents', isBool, 'a boolean')
  if (orphan !== undefined) out.orphanDependents = orphan
  const policy = optional(body, 'propagationPolicy', isString, 'a string')
  if (policy !== undefined) out.propagationPolicy = policy
  const dryRun = optional(body, 'dryRun', isStrings, 'a list of strings')
  if (dryRun !== undefined) out.dryRun = dryRun
  const pre = optional(body, 'preconditions', isRecord, 'an object')
  if (pre !== undefined) {
    const uid = optional(pre, 'uid', isString, 'a string')
    const rv = optional(pre, 'resourceVersion', isString, 'a string')
    out.preconditions = {
      ...(uid !== undefined ? { uid } : {}),
      ...(rv !== undefined ? { resourceVersion: rv } : {}),
    }
  }
  return out
}

/** apimachinery's ValidateDeleteOptions, as StatusCauses. */
function validate(o: Raw): StatusCause[] {
  const causes: StatusCause[] = []
  const policy = o.propagationPolicy
  if (o.orphanDependents !== undefined && policy !== undefined)
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goQuote(policy)}: orphanDependents and deletionPropagation cannot be both set`,
      field: 'propagationPolicy',
    })
  if (policy !== undefined && !POLICIES.includes(policy))
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${goQuote(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
      field: 'propagationPolicy',
    })
  causes.push(...dryRunCauses(o.dryRun ?? []))
  return causes
}

/**
 * The DeleteOptions of a request: from `body` when the request had one (not undefined), else from
 * the query, decoded by `query` only then (a body makes the query count for nothing, its
 * undecodable parameters included); 400 or 422 as kube answers an undecodable or invalid one.
 */
export function parseDeleteOptions(
  body: unknown,
  query: () => DeleteQuery,
  baseUrl: string
): DeleteOptions {
  const o: Raw = body === undefined ? query() : fromBody(body)
  const causes = validate(o)
  if (causes.length > 0) throw invalidOptions('DeleteOptions', causes)
  const out: DeleteOptions = { dryRun: (o.dryRun ?? []).length > 0, baseUrl }
  if (o.propagationPolicy !== undefined) out.propagationPolicy = o.propagationPolicy as Propagation
  else if (o.orphanDependents === true) out.propagationPolicy = 'Orphan'
  if (o.preconditions) out.preconditions = o.preconditions
  return out
}
