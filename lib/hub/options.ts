/**
 * Per-request write options parsed from the query string (dryRun, fieldManager, fieldValidation,
 * force) plus what hooks need to know about the request (the base URL workspaces report).
 */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

export type WriteOptions = {
  dryRun: boolean
  fieldManager: string
  fieldValidation: FieldValidation
  /** Server-side apply: take ownership of conflicting fields. */
  force: boolean
  /** `http://host:port`, for URLs the server reports (Workspace status.URL). */
  baseUrl: string
  /**
   * True: a create past a SpaceQuota is refused (the API's writes, lib/quota/admission.ts);
   * absent: it is counted only (the steps' own writes through the in-process client).
   */
  enforceQuota?: boolean
  /**
   * A last check of the object about to be stored by a create or update (patches included), dry
   * runs too; a throw refuses the write. The RBAC escalation check of an edge-cluster hub.
   */
  admit?: (obj: KubeObjectLike) => Promise<void>
}

export type WriteResult = {
  object: KubeObjectLike
  warnings: string[]
  /** 201 when created, 200 otherwise. */
  created: boolean
  /** True when the write changed nothing and so stored nothing (same resourceVersion). */
  unchanged?: boolean
}

type KubeObjectLike = import('../kube/types.ts').KubeObject

export function defaultWriteOptions(over: Partial<WriteOptions> = {}): WriteOptions {
  return {
    dryRun: false,
    fieldManager: 'unknown',
    fieldValidation: 'Warn',
    force: false,
    // No host by default: a URL built from it stays relative rather than naming a local one.
    baseUrl: '',
    ...over,
  }
}
