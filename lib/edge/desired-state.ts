/**
 * The pure part of the desired-state endpoint (functions/edge-api/desired.ts): reading the
 * agent's `If-None-Match`, deciding between 304, a delta and a full answer, and building the
 * DesiredState of lib/edge/protocol.ts from a mailbox manifest and its bodies. The manifest version
 * is the ETag (`"<version>"`); a mailbox without a manifest is version 0 with no entries. A delta
 * carries the bodies of entries whose `rv` is newer than the version the agent named; a version
 * the center cannot relate (absent, garbage, 0, or not older than the current one) gets every
 * body. The index (`entries`) is always complete; a manifest tombstone is listed with
 * `removing: true` and without its body (the edge deletes it, it never applies it). Each entry
 * carries the ids of the workload spaces its manifest sources name (`tenants`).
 */
import type { KubeObject } from '../kube/types.ts'
import { contentVersion, type Manifest } from '../store/projection-types.ts'
import type { DesiredEntry, DesiredState } from './protocol.ts'

/** The ETag of a manifest version. */
export function versionEtag(version: number): string {
  return `"${version}"`
}

/**
 * The versions named by an `If-None-Match` header (`"5"`, `W/"5"`, or a comma-separated list);
 * anything else in it is ignored, so a garbage header names none.
 */
export function parseIfNoneMatch(header: string | undefined | null): number[] {
  if (!header) return []
  const out: number[] = []
  for (const part of header.split(',')) {
    const m = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(part)
    if (m?.[1]) out.push(Number(m[1]))
  }
  return out
}

/** True when the agent already holds `version` (answer 304). */
export function isNotModified(named: readonly number[], version: number): boolean {
  return named.includes(version)
}

/**
 * The version a delta can start from: the newest named version older than the current one, or
 * undefined (send everything) when none is usable.
 */
export function deltaBase(named: readonly number[], version: number): number | undefined {
  const usable = named.filter((v) => v > 0 && v < version)
  return usable.length > 0 ? Math.max(...usable) : undefined
}

/** Hashes of the bodies to send: entries changed after `since` (all when undefined), once each. */
export function bodiesToSend(manifest: Manifest | undefined, since: number | undefined): string[] {
  const hashes = new Set<string>()
  for (const e of manifest?.entries ?? [])
    if (!e.removing && (since === undefined || e.rv > since)) hashes.add(e.hash)
  return [...hashes]
}

/** The workload spaces an entry comes from, sorted; none when its sources are unknown. */
function tenantsOf(e: Manifest['entries'][number]): Pick<DesiredEntry, 'tenants'> {
  if (!e.sources?.length) return {}
  return { tenants: [...new Set(e.sources.map((s) => s.space))].sort() }
}

/** The answer for `mailbox` (its name) from its manifest and the bodies `bodiesToSend` named. */
export function buildDesiredState(
  mailbox: string,
  manifest: Manifest | undefined,
  since: number | undefined,
  bodies: ReadonlyMap<string, KubeObject>
): DesiredState {
  const entries: DesiredEntry[] = (manifest?.entries ?? []).map((e) => ({
    group: e.group,
    version: e.version,
    resource: e.resource,
    namespace: e.namespace,
    name: e.name,
    hash: e.hash,
    generation: e.generation,
    rv: e.rv,
    ...(e.removing ? { removing: true } : {}),
    ...tenantsOf(e),
  }))
  const out: DesiredState['bodies'] = {}
  for (const hash of bodiesToSend(manifest, since)) {
    const body = bodies.get(hash)
    if (body) out[hash] = body as unknown as Record<string, unknown>
  }
  return {
    kind: 'DesiredState',
    mailbox,
    version: manifest ? contentVersion(manifest) : 0,
    full: since === undefined,
    entries,
    bodies: out,
  }
}
