/**
 * Allocation of Service clusterIPs (from 10.96.0.0/12) and nodePorts (30000-32767) for one
 * simulated edge cluster, unique within it: each value is reserved in the edge's own key-value
 * store with an only-if-absent write naming the Service that holds it. A reservation whose Service
 * is gone (or no longer uses the value) is taken over after a grace period, so values freed by
 * deletes come back without a sweeper and a create still in flight keeps what it reserved.
 */
import { isApiError } from '../errors.ts'
import type { KvStore } from '../store/types.ts'
import { isObj, objects } from './json.ts'

export const SERVICE_CIDR = '10.96.0.0/12'
export const KUBERNETES_SERVICE_IP = '10.96.0.1'
const BASE = (10 << 24) | (96 << 16)
const SIZE = 1 << 20
/** Dynamic allocation stays above the first 256 addresses, kept for fixed ones (kube-dns .10). */
const DYNAMIC_FROM = 256
export const NODE_PORT_MIN = 30000
export const NODE_PORT_MAX = 32767
/** A reservation younger than this is never taken over (its create may still be running). */
export const RESERVATION_GRACE_MS = 60_000

const IPS = 'edge-sim-clusterips'
const PORTS = 'edge-sim-nodeports'

export type Holder = { namespace: string; name: string; at: number }

export type AllocatorDeps = {
  kv: KvStore
  now: () => Date
  random?: () => number
  /** The Service `namespace/name` as stored now, if any. */
  service: (namespace: string, name: string) => Promise<Record<string, unknown> | undefined>
}

export function ipToNumber(ip: string): number | undefined {
  const parts = ip.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256))
    return undefined
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0)
}

export function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.')
}

/** True when `ip` is a usable address of the service range (not the network or broadcast one). */
export function inServiceRange(ip: string): boolean {
  const n = ipToNumber(ip)
  if (n === undefined) return false
  const offset = n - (BASE >>> 0)
  return offset > 0 && offset < SIZE - 1
}

async function usesIp(deps: AllocatorDeps, h: Holder, ip: string): Promise<boolean> {
  const spec = (await deps.service(h.namespace, h.name))?.spec
  return isObj(spec) && spec.clusterIP === ip
}

async function usesPort(deps: AllocatorDeps, h: Holder, key: string): Promise<boolean> {
  const spec = (await deps.service(h.namespace, h.name))?.spec
  return objects(spec, 'ports').some((p) => `${p.protocol ?? 'TCP'}:${p.nodePort}` === key)
}

/**
 * A reservation of `key` (in the kv namespace `ns`) for the Service `who`; `held` tells whether
 * an earlier holder still uses it.
 */
type Reservation = {
  ns: string
  key: string
  who: { namespace: string; name: string }
  held: (h: Holder) => Promise<boolean>
}

/** Reserves `r.key` for `r.who`; false when another live Service holds it. */
async function reserve(deps: AllocatorDeps, r: Reservation): Promise<boolean> {
  const { ns, key, who, held } = r
  const holder: Holder = { ...who, at: deps.now().getTime() }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await deps.kv.put(ns, key, holder, null)
      return true
    } catch (e) {
      if (!(isApiError(e) && e.reason === 'AlreadyExists')) throw e
    }
    const entry = await deps.kv.get<Holder>(ns, key)
    if (!entry) continue
    const h = entry.value
    if (h.namespace === who.namespace && h.name === who.name) return true
    if (holder.at - h.at < RESERVATION_GRACE_MS || (await held(h))) return false
    try {
      await deps.kv.put(ns, key, holder, entry.version)
      return true
    } catch (e) {
      if (!(isApiError(e) && e.code === 409)) throw e
    }
  }
  return false
}

/** Reserves a given clusterIP; false when another Service holds it. */
export function reserveClusterIp(
  deps: AllocatorDeps,
  ip: string,
  who: { namespace: string; name: string }
): Promise<boolean> {
  return reserve(deps, { ns: IPS, key: ip, who, held: (h) => usesIp(deps, h, ip) })
}

/** A free clusterIP, reserved for `who` (unless `dryRun`: then only picked). */
export async function allocateClusterIp(
  deps: AllocatorDeps,
  who: { namespace: string; name: string },
  dryRun: boolean
): Promise<string> {
  const random = deps.random ?? Math.random
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = DYNAMIC_FROM + Math.floor(random() * (SIZE - DYNAMIC_FROM - 1))
    const ip = numberToIp((BASE >>> 0) + offset)
    if (dryRun || (await reserveClusterIp(deps, ip, who))) return ip
  }
  throw new Error('no free clusterIP found in 50 attempts')
}

export function reserveNodePort(
  deps: AllocatorDeps,
  port: number,
  protocol: string,
  who: { namespace: string; name: string }
): Promise<boolean> {
  const key = `${protocol}:${port}`
  return reserve(deps, { ns: PORTS, key, who, held: (h) => usesPort(deps, h, key) })
}

export async function allocateNodePort(
  deps: AllocatorDeps,
  protocol: string,
  who: { namespace: string; name: string },
  dryRun: boolean
): Promise<number> {
  const random = deps.random ?? Math.random
  const span = NODE_PORT_MAX - NODE_PORT_MIN + 1
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = NODE_PORT_MIN + Math.floor(random() * span)
    if (dryRun || (await reserveNodePort(deps, port, protocol, who))) return port
  }
  throw new Error('no free nodePort found in 50 attempts')
}
