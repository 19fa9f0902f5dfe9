/**
 * What one JSON patch may make of an object, tracked while its operations run: an estimate of the
 * object's JSON size (measured once, then adjusted by each add, copy, replace and remove), an upper
 * bound of its nesting depth, and the bytes its `copy` operations duplicated. Each operation is
 * checked before it allocates anything, so a patch that doubles `/data` thirty times stops at the
 * step that would pass MAX_PATCHED_OBJECT_BYTES (413) instead of running the heap out; copies past
 * MAX_JSON_PATCH_COPY_BYTES are 422 (kube's JSONPatchMaxCopyBytes), nesting that grows past
 * MAX_NESTING_DEPTH (plus the managedFields allowance) is 422. The estimate never exceeds the true size, so nothing the store would
 * accept is refused.
 */
import { ApiError } from '../errors.ts'
import type { JsonValue } from '../kube/types.ts'
import {
  MANAGED_FIELDS_EXTRA_DEPTH,
  MAX_JSON_PATCH_COPY_BYTES,
  MAX_NESTING_DEPTH,
  MAX_PATCHED_OBJECT_BYTES,
  patchedTooDeep,
  patchedTooLarge,
} from './json-limits.ts'
import { measureJson } from './json-measure.ts'

/** Depth past which no operation may take the document (patched-result.ts then checks exactly). */
const DEPTH_CEILING = MAX_NESTING_DEPTH + MANAGED_FIELDS_EXTRA_DEPTH

export class PatchBudget {
  private bytes: number
  private depth: number
  private copied = 0

  constructor(doc: JsonValue) {
    const m = measureJson(doc)
    this.bytes = m.bytes
    this.depth = m.depth
  }

  /**
   * Accounts for `value` about to be placed `at` tokens deep (add, replace, or copy when `copy`);
   * `where` names the operation in errors.
   */
  insert(value: JsonValue, at: number, where: string, copy = false): void {
    const room = MAX_PATCHED_OBJECT_BYTES - this.bytes
    const copyRoom = MAX_JSON_PATCH_COPY_BYTES - this.copied
    const m = measureJson(value, {
      maxDepth: Math.max(DEPTH_CEILING - at, 0),
      maxBytes: copy ? Math.min(room, copyRoom) : room,
    })
    if (m.exceeded === 'depth') throw patchedTooDeep(where)
    if (m.exceeded === 'bytes' && m.bytes > room) throw patchedTooLarge(where, this.bytes + m.bytes)
    if (m.exceeded === 'bytes')
      throw new ApiError(
        422,
        'Invalid',
        `${where} failed: the copies of this patch would add up to more than ${MAX_JSON_PATCH_COPY_BYTES} bytes`
      )
    this.bytes += m.bytes
    if (copy) this.copied += m.bytes
    this.depth = Math.max(this.depth, at + m.depth)
  }

  /** Accounts for `value` leaving the object (remove, or the old value of a replace). */
  remove(value: JsonValue): void {
    this.bytes = Math.max(this.bytes - measureJson(value).bytes, 0)
  }

  /** Accounts for a move from `from` tokens deep to `to` tokens deep. */
  move(from: number, to: number, where: string): void {
    if (to <= from) return
    this.depth += to - from
    if (this.depth > DEPTH_CEILING) throw patchedTooDeep(where)
  }
}
