/**
 * CustomResourceDefinitions as resource types: `resourcesFromCrd` turns a valid CRD into the
 * ResourceInfo the registry serves (served versions ordered by kube version priority so the
 * preferred one is first, the storage version, status and scale subresources, printer columns and
 * the openAPIV3Schema of each version). Also kube's version priority (`compareKubeVersions`),
 * which the registry and the translator's version choice use, and `validateCrd` (re-exported from
 * `crd-validate.ts`).
 */
import { validateCrd } from './crd-validate.ts'
import {
  type PrinterColumn,
  type ResourceInfo,
  STANDARD_VERBS,
  type Subresources,
} from './resource-info.ts'
import type { JsonObject, KubeObject } from './types.ts'
import { asArray, asRecord, asString, isRecord } from './validate-util.ts'

export { validateCrd }

type Parsed = { major: number; stability: 0 | 1 | 2; minor: number }

const KUBE_VERSION = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/

function parse(v: string): Parsed | undefined {
  const m = KUBE_VERSION.exec(v)
  if (!m) return undefined
  const stability = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0
  return { major: Number(m[1]), stability, minor: m[3] === undefined ? 0 : Number(m[3]) }
}

/** True for strings like `v1`, `v2beta1`, `v1alpha3`. */
export function isKubeVersion(v: string): boolean {
  return parse(v) !== undefined
}

/**
 * Compares by kube version priority, like kube's CompareKubeAwareVersionStrings: positive when
 * `a` has the HIGHER priority, negative when `b` does, 0 when equal.
 */
export function compareKubeVersions(a: string, b: string): number {
  const pa = parse(a)
  const pb = parse(b)
  if (!pa && !pb) return a < b ? 1 : a > b ? -1 : 0
  if (!pa) return -1
  if (!pb) return 1
  if (pa.stability !== pb.stability) return pa.stability - pb.stability
  if (pa.major !== pb.major) return pa.major - pb.major
  return pa.minor - pb.minor
}

/** A copy of `versions`, highest priority (the preferred version) first. */
export function sortByKubeVersionPriority(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => compareKubeVersions(b, a))
}

function toPrinterColumns(columns: unknown): PrinterColumn[] {
  const out: PrinterColumn[] = []
  for (const c of asArray(columns) ?? []) {
    const col = asRecord(c)
    const name = asString(col?.name)
    const type = asString(col?.type)
    const jsonPath = asString(col?.jsonPath)
    if (!col || !name || !type || !jsonPath) continue
    const pc: PrinterColumn = { name, type, jsonPath }
    if (typeof col.description === 'string') pc.description = col.description
    if (typeof col.format === 'string') pc.format = col.format
    if (typeof col.priority === 'number') pc.priority = col.priority
    out.push(pc)
  }
  return out
}

function toSubresources(versions: Record<string, unknown>[]): Subresources {
  const out: Subresources = { status: false }
  for (const v of versions) {
    const sub = asRecord(v.subresources)
    if (!sub) continue
    if (isRecord(sub.status)) out.status = true
    const scale = asRecord(sub.scale)
    const spec = asString(scale?.specReplicasPath)
    const status = asString(scale?.statusReplicasPath)
    if (scale && spec && status && !out.scale) {
      out.scale = { specReplicasPath: spec, statusReplicasPath: status }
      const sel = asString(scale.labelSelectorPath)
      if (sel) out.scale.labelSelectorPath = sel
    }
  }
  return out
}

const strings = (v: unknown): string[] => (asArray(v) ?? []).filter((s) => typeof s === 'string')

/**
 * The resource a CRD defines, or undefined when the CRD is invalid (see validateCrd) or serves no
 * version. The status subresource is on when any served version declares it.
 */
export function resourcesFromCrd(crd: KubeObject): ResourceInfo | undefined {
  if (validateCrd(crd).length > 0) return undefined
  const spec = crd.spec as Record<string, unknown>
  const names = spec.names as Record<string, unknown>
  const all = (spec.versions as unknown[]).filter(isRecord)
  const served = all.filter((v) => v.served === true)
  const storage = all.find((v) => v.storage === true)
  if (served.length === 0 || !storage) return undefined
  const kind = names.kind as string
  const printerColumns: Record<string, PrinterColumn[]> = {}
  const schema: Record<string, JsonObject> = {}
  for (const v of served) {
    const name = v.name as string
    const columns = toPrinterColumns(v.additionalPrinterColumns)
    if (columns.length > 0) printerColumns[name] = columns
    const s = asRecord(asRecord(v.schema)?.openAPIV3Schema)
    if (s) schema[name] = s as JsonObject
  }
  return {
    group: spec.group as string,
    versions: sortByKubeVersionPriority(served.map((v) => v.name as string)),
    storageVersion: storage.name as string,
    resource: names.plural as string,
    singular: asString(names.singular) || kind.toLowerCase(),
    kind,
    listKind: asString(names.listKind) || `${kind}List`,
    namespaced: spec.scope === 'Namespaced',
    shortNames: strings(names.shortNames),
    categories: strings(names.categories),
    verbs: [...STANDARD_VERBS],
    subresources: toSubresources(served),
    source: 'crd',
    printerColumns,
    schema,
  }
}
