/**
 * Query parameters of kube API requests, parsed once with zod: what a list/watch asks for and
 * what a write asks for. Invalid values are 400 BadRequest naming the parameter.
 */
import { z } from 'zod'
import { badRequest } from '../../lib/errors.ts'
import type { FieldValidation } from '../../lib/hub/options.ts'

const boolish = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1')

const QuerySchema = z.object({
  watch: boolish,
  allowWatchBookmarks: boolish,
  force: boolish,
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  limit: z.coerce.number().int().min(0).optional(),
  continue: z.string().optional(),
  resourceVersion: z.string().optional(),
  resourceVersionMatch: z.string().optional(),
  timeoutSeconds: z.coerce.number().int().min(0).optional(),
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
  const raw: Record<string, string> = {}
  for (const [k, v] of url.searchParams) raw[k] = v
  const parsed = QuerySchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw badRequest(
      `invalid query parameter ${String(issue?.path[0] ?? '')}: ${issue?.message ?? ''}`
    )
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
