/**
 * A Bloom filter over strings, small enough to keep in one key-value item between cron ticks
 * (the projection sweep's set of referenced body hashes, projection-sweep.ts): `has` is never
 * false for an added string, and true for an absent one with a small probability that grows with
 * the count added (about 1% at 100,000 strings in the default 2^20 bits, 7 probes). The seed
 * changes which absent strings collide, so successive sweeps miss different ones. Serialized as
 * base64 of the bit array.
 */
import { FNV_OFFSET_BASIS, fnv1a } from '../fnv.ts'

export type Bloom = {
  add(value: string): void
  has(value: string): boolean
  /** The bits as base64, for `loadBloom`. */
  save(): string
}

export const BLOOM_BITS = 1 << 20
const PROBES = 7

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  const STEP = 0x8000
  for (let at = 0; at < bytes.length; at += STEP) {
    binary += String.fromCharCode(...bytes.subarray(at, at + STEP))
  }
  return btoa(binary)
}

function fromBase64(text: string, size: number): Uint8Array {
  const binary = atob(text)
  if (binary.length !== size) throw new Error(`bloom filter of ${binary.length} bytes, not ${size}`)
  const out = new Uint8Array(size)
  for (let i = 0; i < size; i++) out[i] = binary.charCodeAt(i)
  return out
}

function bloomOver(bits: Uint8Array, seed: number): Bloom {
  const size = bits.length * 8
  const probes = (value: string): number[] => {
    const a = fnv1a(value, FNV_OFFSET_BASIS ^ seed)
    const b = fnv1a(value, 0x01000193 ^ Math.imul(seed, 0x9e3779b1)) | 1
    return Array.from({ length: PROBES }, (_, i) => (a + Math.imul(i, b)) >>> 0)
  }
  return {
    add(value) {
      for (const p of probes(value)) {
        const bit = p % size
        bits[bit >>> 3] = (bits[bit >>> 3] ?? 0) | (1 << (bit & 7))
      }
    },
    has(value) {
      return probes(value).every((p) => {
        const bit = p % size
        return ((bits[bit >>> 3] ?? 0) & (1 << (bit & 7))) !== 0
      })
    },
    save: () => toBase64(bits),
  }
}

/** An empty filter of `bitCount` bits (a multiple of 8). */
export function newBloom(seed: number, bitCount: number = BLOOM_BITS): Bloom {
  return bloomOver(new Uint8Array(Math.ceil(bitCount / 8)), seed)
}

/** A filter saved by `save()` with the same seed and size. */
export function loadBloom(saved: string, seed: number, bitCount: number = BLOOM_BITS): Bloom {
  return bloomOver(fromBase64(saved, Math.ceil(bitCount / 8)), seed)
}
