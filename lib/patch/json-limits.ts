/**
 * The bounds on the work one request may cause with a JSON document, in one place so the decoder
 * (functions/api/body.ts), the patch engines and the recursive JSON helpers agree on them (see
 * "Request limits" in docs/ARCHITECTURE.md). Nesting is bounded so that no recursive helper (ours,
 * the YAML composer, JSON.stringify, structuredClone) can run out of stack; size is bounded so a
 * patch cannot grow an object (and the heap) without limit. Each refusal is a typed ApiError that
 * renders as a kube Status, never a stack overflow or an out-of-memory restart.
 */
import { ApiError, badRequest, tooLarge } from '../errors.ts'
import { type MeasureLimits, measureJson } from './json-measure.ts'

/**
 * Deepest accepted nesting of arrays and objects in a decoded body or a patched object (the top
 * level counts as 1). kube's decoders stop at 10,000 (Go's encoding/json); ours is lower because
 * JS helpers recurse on the stack: the YAML composer overflows near 700 levels, structuredClone
 * near 1,600. 256 levels is far more than any Kubernetes object or CRD schema needs (a CRD whose
 * types nest 100 structs deep stays near 210).
 */
export const MAX_NESTING_DEPTH = 256

/**
 * Extra levels allowed inside `metadata.managedFields`: its FieldsV1 trees mirror the object with
 * up to four wrapper levels (list, entry, fieldsV1, leaf), so an object at MAX_NESTING_DEPTH still
 * reads back as a document a client may send again.
 */
export const MANAGED_FIELDS_EXTRA_DEPTH = 8

/**
 * The recursive helpers of lib/patch refuse values nested deeper than this with a 400 instead of
 * overflowing. It is twice MAX_NESTING_DEPTH so values derived from accepted ones (managed-fields
 * trees mirror an object with a few wrapper levels) always pass.
 */
export const HELPER_DEPTH_GUARD = 2 * MAX_NESTING_DEPTH

/**
 * Largest JSON size a patch may grow an object to while it is being applied: the stored-object
 * limit of lib/store/body-codec.ts (MAX_OBJECT_BYTES), checked as an estimate after each operation
 * so a doubling patch stops after a few steps instead of allocating gigabytes.
 */
export const MAX_PATCHED_OBJECT_BYTES = 1_048_576

/**
 * Total bytes the `copy` operations of one JSON patch may duplicate; kube's JSONPatchMaxCopyBytes
 * (3 MiB by default) with kube's answer, 422.
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024

/**
 * True when `value` nests deeper than MAX_NESTING_DEPTH, not counting `metadata.managedFields`,
 * which may go MANAGED_FIELDS_EXTRA_DEPTH levels further. Measured without recursion.
 */
export function nestedTooDeep(value: unknown): boolean {
  return measureJson(value, KUBE_DEPTH).exceeded === 'depth'
}

/** The depth limits of a kube object, for measureJson. */
export const KUBE_DEPTH: MeasureLimits = {
  maxDepth: MAX_NESTING_DEPTH,
  roomUnder: { path: ['metadata', 'managedFields'], extraDepth: MANAGED_FIELDS_EXTRA_DEPTH },
}

/** 400 for a decoded document nested deeper than MAX_NESTING_DEPTH. */
export const bodyTooDeep = (format: string) =>
  badRequest(
    `error decoding ${format} request body: the document is nested more than ${MAX_NESTING_DEPTH} levels deep`
  )

/** 422 for a patch whose result would be nested deeper than MAX_NESTING_DEPTH. */
export const patchedTooDeep = (what: string) =>
  new ApiError(
    422,
    'Invalid',
    `${what}: the patched object would be nested more than ${MAX_NESTING_DEPTH} levels deep`
  )

/** 413 for a patch whose result would exceed MAX_PATCHED_OBJECT_BYTES. */
export const patchedTooLarge = (what: string, bytes: number) =>
  tooLarge(
    `${what}: the patched object would be at least ${bytes} bytes of JSON, over the limit of ${MAX_PATCHED_OBJECT_BYTES} bytes`
  )

/** Throws a 400 when a recursive helper is `depth` levels down past HELPER_DEPTH_GUARD. */
export function guardDepth(depth: number): void {
  if (depth > HELPER_DEPTH_GUARD)
    throw badRequest(`the value is nested more than ${HELPER_DEPTH_GUARD} levels deep`)
}
