/**
 * zod schemas of the shared Kubernetes meta types the edge and kcp kinds embed: ObjectMeta (loose:
 * the metadata rules themselves live in lib/kube/validate-meta.ts), LabelSelector with kube's rules
 * (operators In/NotIn/Exists/DoesNotExist, values required for In/NotIn and forbidden otherwise,
 * qualified-name keys, valid label values), Conditions, GroupVersionResource and Quantity.
 * Custom issues carry `params.reason`, the kube StatusCause reason to report.
 */
import { z } from 'zod'
import { labelValueErrors, qualifiedNameErrors } from '../kube/names.ts'

export const ObjectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  finalizers: z.array(z.string()).optional(),
  ownerReferences: z.array(z.looseObject({})).optional(),
})
export type ObjectMetaInput = z.infer<typeof ObjectMetaSchema>

export const LABEL_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const

export const LabelSelectorRequirementSchema = z
  .object({
    key: z.string().describe('The label key that the selector applies to.'),
    operator: z
      .enum(LABEL_SELECTOR_OPERATORS)
      .describe("The key's relationship to the values: In, NotIn, Exists or DoesNotExist."),
    values: z.array(z.string()).optional().describe('Values for In and NotIn; empty otherwise.'),
  })
  .superRefine((req, ctx) => {
    for (const m of qualifiedNameErrors(req.key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['key'],
        message: `Invalid value: ${JSON.stringify(req.key)}: ${m}`,
      })
    }
    const hasValues = (req.values?.length ?? 0) > 0
    if ((req.operator === 'In' || req.operator === 'NotIn') && !hasValues) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
        params: { reason: 'FieldValueRequired' },
      })
    }
    if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && hasValues) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        params: { reason: 'FieldValueForbidden' },
      })
    }
  })

export const LabelSelectorSchema = z
  .object({
    matchLabels: z
      .record(z.string(), z.string())
      .optional()
      .describe('Labels an object must carry with exactly these values.'),
    matchExpressions: z
      .array(LabelSelectorRequirementSchema)
      .optional()
      .describe('Requirements on label keys and values; an object must meet every one.'),
  })
  .superRefine((sel, ctx) => {
    for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
      for (const m of qualifiedNameErrors(k)) {
        ctx.addIssue({
          code: 'custom',
          path: ['matchLabels'],
          message: `Invalid value: ${JSON.stringify(k)}: ${m}`,
        })
      }
      for (const m of labelValueErrors(v)) {
        ctx.addIssue({
          code: 'custom',
          path: ['matchLabels'],
          message: `Invalid value: ${JSON.stringify(v)}: ${m}`,
        })
      }
    }
  })
  .describe('A label query over a set of resources; an empty selector matches everything.')
export type LabelSelector = z.infer<typeof LabelSelectorSchema>

export const ConditionSchema = z.object({
  type: z.string().describe('What the condition is about (Ready, Translated...).'),
  status: z.enum(['True', 'False', 'Unknown']).describe('True, False or Unknown.'),
  severity: z
    .string()
    .optional()
    .describe('How bad a False condition is (kcp conditions); usually empty.'),
  observedGeneration: z
    .number()
    .int()
    .optional()
    .describe("The object's metadata.generation the condition was written for."),
  lastTransitionTime: z.string().optional().describe('When status last changed (RFC 3339).'),
  reason: z.string().optional().describe('A one-word, CamelCase cause of the current status.'),
  message: z.string().optional().describe('What the status means here, for a person.'),
})
export type Condition = z.infer<typeof ConditionSchema>

export const GroupVersionResourceSchema = z.object({
  group: z.string().describe('API group; empty is the core group.'),
  version: z.string().describe('API version within the group (v1alpha1).'),
  resource: z.string().describe('Lowercase plural resource name (synctargets).'),
})
export type GroupVersionResource = z.infer<typeof GroupVersionResourceSchema>

/** A resource quantity: `"500m"`, `"1Gi"` or a plain number. */
export const QuantitySchema = z.union([z.string(), z.number()])
