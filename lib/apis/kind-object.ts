/**
 * The zod schema of a whole API object of one kind: apiVersion, the kind as a literal, the hub's
 * loose ObjectMeta and the kind's own top-level fields, with the kind's description, which
 * `/openapi/v3` serves and `kubectl explain <kind>` prints (lib/kube/openapi.ts).
 */
import { z } from 'zod'
import { ObjectMetaSchema } from './meta.ts'

export const kindObject = <K extends string, S extends z.ZodRawShape>(
  kind: K,
  description: string,
  shape: S
) =>
  z
    .object({ apiVersion: z.string(), kind: z.literal(kind), metadata: ObjectMetaSchema, ...shape })
    .describe(description)
