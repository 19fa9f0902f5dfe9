/**
 * Query parameters of kube API requests, parsed once as kube-apiserver's parameter codec does
 * (k8s.io/apimachinery pkg/runtime/conversion.go): only the first value of a repeated parameter
 * counts; a boolean (watch, allowWatchBookmarks, force, sendInitialEvents) is false only when
 * absent, "0" or "false" in any letter case, and true for anything else, "" and "True" included
 * (the official Python client sends `watch=True`); an integer (limit, timeoutSeconds) is a signed
 * 64-bit decimal (strconv.ParseInt), else 400 with Go's message. `dryRun` is a list: every value
 * counts. The options of one verb are checked only for that verb, as kube decodes and validates
 * each verb's options struct on its own: the write options (dryRun, fieldManager, fieldValidation,
 * force) in write-options.ts, the DeleteOptions (`deleteQuery` here, then lib/hub/delete.ts's
 * parseDeleteOptions), resourceVersion and the list options where they are used
 * (lib/hub/list-options.ts, lib/hub/resource-version.ts).
 */
import { z } from 'zod'
import { badRequest } from '../../lib/errors.ts'
import type { DeleteQuery } from '../../lib/hub/delete.ts'
import type { ListOptions } from '../../lib/hub/list-options.ts'
import type { FieldValidation } from '../../lib/hub/options.ts'

/**
 * Go's strings.EqualFold(v, "false"): simple case folding, under which the long s (U+017F)
 * matches "s" as well.
 */
const foldsToFalse = (v: string) => v.toLowerCase().replace(/\u017f/g, 's') === 'false'

/** kube's Convert_Slice_string_To_bool on the first value. */
const kubeBool = z
  .string()
  .optional()
  .transform((v) => v !== undefined && v !== '0' && !foldsToFalse(v))

/** kube's Convert_Slice_string_To_Pointer_bool: undefined when absent. */
const kubeOptionalBool = z
  .string()
  .optional()
  .transform((v) => (v === undefined ? undefined : v !== '0' && !foldsToFalse(v)))

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** kube's strconv.ParseInt(v, 10, 64); Go's error text as the issue message. */
const kubeInt64 = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined
    const quoted = JSON.stringify(v)
    if (!/^[+-]?[0-9]+$/.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message: `strconv.ParseInt: parsing ${quoted}: invalid syntax`,
      })
      return z.NEVER
    }
    const n = BigInt(v)
    if (n < INT64_MIN || n > INT64_MAX) {
      ctx.addIssue({
        code: 'custom',
        message: `strconv.ParseInt: parsing ${quoted}: value out of range`,
      })
      return z.NEVER
    }
    return Number(n)
  })

const INT_PARAMS = new Set(['limit', 'timeoutSeconds', 'gracePeriodSeconds'])

/** fieldValidation values, in any letter case; '' is kube's default (Warn). */
const FIELD_VALIDATIONS = new Set(['', 'strict', 'warn', 'ignore'])

const QuerySchema = z.object({
  watch: kubeBool,
  allowWatchBookmarks: kubeBool,
  force: kubeBool,
  sendInitialEvents: kubeOptionalBool,
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  limit: kubeInt64,
  continue: z.string().optional(),
  resourceVersion: z.string().optional(),
  resourceVersionMatch: z.string().optional(),
  timeoutSeconds: kubeInt64,
  fieldManager: z.string().optional(),
  fieldValidation: z.string().optional(),
})

type Parsed = z.infer<typeof QuerySchema>

export type ApiQuery = Omit<Parsed, 'fieldValidation'> & {
  /** Whether `dryRun=All` was given (the values are checked per verb: `dryRunValues`). */
  dryRun: boolean
  /** Every `dryRun` value, in order. */
  dryRunValues: string[]
  /** The fieldValidation directive; `Warn` when absent or not one kube knows. */
  fieldValidation: FieldValidation
  /** The fieldValidation value as given, checked per verb. */
  fieldValidationValue: string | undefined
  /** Whether `force` was given at all (kube forbids it on patches other than apply). */
  forceGiven: boolean
  /** The first value of each parameter, for the options one verb decodes itself (`deleteQuery`). */
  params: Readonly<Record<string, string>>
}

/** Decodes `schema` from the first value of each parameter, with kube's 400 for a bad one. */
function decodeFirst<S extends z.ZodType>(schema: S, raw: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const name = String(issue?.path[0] ?? '')
  // kube answers a parameter that does not decode with the decoder's own error text
  if (INT_PARAMS.has(name)) throw badRequest(issue?.message ?? '')
  throw badRequest(`invalid query parameter ${name}: ${issue?.message ?? ''}`)
}

export function parseQuery(url: URL): ApiQuery {
  const raw: Record<string, string> = Object.create(null)
  for (const [k, v] of url.searchParams) if (!Object.hasOwn(raw, k)) raw[k] = v
  const q = decodeFirst(QuerySchema, raw)
  const dryRunValues = url.searchParams.getAll('dryRun')
  const fv = q.fieldValidation
  const known = fv !== undefined && FIELD_VALIDATIONS.has(fv.toLowerCase())
  const fieldValidation = (
    known && fv !== '' ? fv[0]?.toUpperCase() + fv.slice(1).toLowerCase() : 'Warn'
  ) as FieldValidation
  return {
    ...q,
    dryRun: dryRunValues.includes('All'),
    dryRunValues,
    fieldValidation,
    fieldValidationValue: fv,
    forceGiven: raw.force !== undefined,
    params: raw,
  }
}

const DeleteQuerySchema = z.object({
  gracePeriodSeconds: kubeInt64,
  orphanDependents: kubeOptionalBool,
  propagationPolicy: z.string().optional(),
})

/**
 * The DeleteOptions a DELETE without a body carries in its query, decoded as kube's parameter
 * codec does (first value, except dryRun: all of them); a gracePeriodSeconds that is no int64 is
 * 400 BadRequest. Only the decoding: parseDeleteOptions validates.
 */
export function deleteQuery(q: ApiQuery): DeleteQuery {
  const d = decodeFirst(DeleteQuerySchema, q.params)
  const out: DeleteQuery = {}
  if (d.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = d.gracePeriodSeconds
  if (d.orphanDependents !== undefined) out.orphanDependents = d.orphanDependents
  if (d.propagationPolicy !== undefined) out.propagationPolicy = d.propagationPolicy
  if (q.dryRunValues.length > 0) out.dryRun = q.dryRunValues
  return out
}

/** The list options of a read (for list, watch and their validation), only those given. */
export function listParams(q: ApiQuery): Omit<ListOptions, 'watch'> {
  return {
    ...(q.resourceVersion !== undefined ? { resourceVersion: q.resourceVersion } : {}),
    ...(q.resourceVersionMatch !== undefined
      ? { resourceVersionMatch: q.resourceVersionMatch }
      : {}),
    ...(q.sendInitialEvents !== undefined ? { sendInitialEvents: q.sendInitialEvents } : {}),
    ...(q.continue !== undefined ? { continue: q.continue } : {}),
  }
}
