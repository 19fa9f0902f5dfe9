/**
 * Names and hashes the simulated controllers hand out the way kube's do: the pod-template hash of
 * a Deployment's template (FNV-32a of the template, its decimal digits mapped onto kube's
 * vowel-free alphabet, as `rand.SafeEncodeString` does, so `web-7d4b9c8f5`-style names), and
 * fake container and image ids.
 */
import type { JsonValue } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'
export const POD_TEMPLATE_HASH = 'pod-template-hash'

export function fnv32a(text: string): number {
  let h = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

/** kube's SafeEncodeString: each character mapped onto the alphabet by its code. */
export function safeEncode(text: string): string {
  let out = ''
  for (const ch of text) out += SAFE_ALPHABET[(ch.codePointAt(0) ?? 0) % SAFE_ALPHABET.length]
  return out
}

/** `v` without null members (Go's typed structs read a null as the zero value: no difference). */
function withoutNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutNulls)
  if (v === null || typeof v !== 'object') return v
  const out: Record<string, JsonValue> = {}
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x)
  return out
}

/**
 * The hash of a pod template, ignoring any pod-template-hash label it already carries and null
 * members (`rollout undo` sends the template back with `creationTimestamp: null`).
 */
export function podTemplateHash(template: unknown): string {
  const t = withoutNulls((template ?? {}) as JsonValue) as Record<string, JsonValue>
  const meta = t.metadata
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    const labels = meta.labels
    if (labels && typeof labels === 'object' && !Array.isArray(labels))
      delete labels[POD_TEMPLATE_HASH]
  }
  return safeEncode(String(fnv32a(canonicalJson(t))))
}

/** `n` random lowercase hex digits. */
export function randomHex(n: number, random: () => number): string {
  let out = ''
  for (let i = 0; i < n; i++) out += Math.floor(random() * 16).toString(16)
  return out
}

/** The registry-qualified image name a container runtime reports (`nginx` → docker.io/library/nginx:latest). */
export function qualifiedImage(image: string): string {
  const slash = image.indexOf('/')
  const first = slash < 0 ? '' : image.slice(0, slash)
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost'
  let name = hasRegistry ? image : `docker.io/${slash < 0 ? `library/${image}` : image}`
  const last = name.slice(name.lastIndexOf('/') + 1)
  if (!last.includes(':') && !name.includes('@')) name = `${name}:latest`
  return name
}
