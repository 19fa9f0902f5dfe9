/**
 * Query parameters of kube API requests, parsed once as kube-apiserver's parameter codec does
 * (k8s.io/apimachinery pkg/runtime/conversion.go): only the first value of a repeated parameter
 * counts; a boolean (watch, allowWatchBookmarks, force, sendInitialEvents) is false only when
 * absent, "0" or "false" in any letter case, and true for anything else, "" and "True" included
 * (the official Python client sends `watch=True`); an integer (limit, timeoutSeconds) is a signed
 * 64-bit decimal (strconv.ParseInt), else 400 with Go's message. The other checks are zod's:
 * invalid values are 400 BadRequest naming the parameter. resourceVersion and the list options
 * are checked where they are used (lib/hub/list-options.ts, lib/hub/resource-version.ts), since
 * kube checks them only for reads.
 */
import { z } from 'zod'
import { badRequest } from '../../lib/errors.ts'
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

const INT_PARAMS = new Set(['limit', 'timeoutSeconds'])

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
  dryRun: z.string().optional(),
  fieldManager: z.string().max(128).optional(),
  fieldValidation: z.enum(['Strict', 'Warn', 'Ignore', 'strict', 'warn', 'ignore']).optional(),
  propagationPolicy: z.string().optional(),
})

export type ApiQuery = Omit<z.infer<typeof QuerySchema>, 'dryRun' | 'fieldValidation'> & {
  dryRun: boolean
  fieldValidation: FieldValidation
}

export function parseQuery(url: URL): ApiQuery {
  const raw: Record<string, string> = Object.create(null)
  for (const [k, v] of url.searchParams) if (!Object.hasOwn(raw, k)) raw[k] = v
  const parsed = QuerySchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? '')
    // kube answers a parameter that does not decode with the decoder's own error text
    if (INT_PARAMS.has(name)) throw badRequest(issue?.message ?? '')
    throw badRequest(`invalid query parameter ${name}: ${issue?.message ?? ''}`)
  }
  const q = parsed.data
  if (q.dryRun !== undefined && q.dryRun !== 'All')
    throw badRequest(`invalid dry run value "${q.dryRun}": the only supported value is "All"`)
  const fv = q.fieldValidation
  const fieldValidation = (
    fv ? fv[0]?.toUpperCase() + fv.slice(1).toLowerCase() : 'Warn'
  ) as FieldValidation
  return { ...q, dryRun: q.dryRun === 'All', fieldValidation }
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
