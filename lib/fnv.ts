/**
 * FNV-1a, 32 bits, over a string's UTF-16 code units: a cheap, stable, well-spread hash for
 * picking places (Bloom filter probes, an edge's offset in its status window), never for
 * integrity. `basis` defaults to the standard offset basis; callers wanting independent hashes
 * pass another.
 */
export const FNV_OFFSET_BASIS = 0x811c9dc5

export function fnv1a(value: string, basis = FNV_OFFSET_BASIS): number {
  let h = basis >>> 0
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}
