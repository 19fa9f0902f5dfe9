/**
 * The dashboard API's query parameters, decoded at the edge by zod: a space path, a page window
 * (`offset`, `limit` with a per-route ceiling) and flags. A malformed value is a 400 kube Status
 * naming the parameter, never a default silently taken.
 */
import { z } from 'zod'
import { badRequest } from '../../lib/errors.ts'

const count = z.coerce.number().int().min(0)
const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((v) => v === '1' || v === 'true')

/** A page of at most `max` items (default `fallback`). */
export const windowSchema = (max: number, fallback: number) =>
  z.object({
    offset: count.max(10_000_000).default(0),
    limit: count.min(1).max(max).default(fallback),
  })

export const spaceParam = z.string().min(1).max(400)
export const nameParam = z.string().min(1).max(253)
export const labelsParam = z.string().max(2000).optional()
export { flag }

/** Decodes `query` with `schema`, or a 400 Status listing what is wrong. */
export function decodeQuery<S extends z.ZodType>(
  schema: S,
  query: Record<string, string | undefined>
): z.infer<S> {
  const r = schema.safeParse(query)
  if (r.success) return r.data
  const why = r.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')
  throw badRequest(`invalid query: ${why}`)
}
