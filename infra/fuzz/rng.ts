/**
 * A small seeded pseudo-random generator (mulberry32) for the fuzzer: the same seed yields the
 * same requests in the same order, so a failing run can be replayed with `--seed`.
 */

export type Rng = {
  /** A float in [0, 1). */
  next(): number
  int(maxExclusive: number): number
  pick<T>(items: readonly T[]): T
  /** A copy of `items` in a seeded random order. */
  shuffle<T>(items: readonly T[]): T[]
  /** A lowercase alphanumeric token of `n` characters. */
  word(n: number): string
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive)
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    shuffle: <T>(items: readonly T[]) => {
      const out = [...items]
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1)
        ;[out[i], out[j]] = [out[j] as T, out[i] as T]
      }
      return out
    },
    word: (n: number) => {
      const abc = 'abcdefghijklmnopqrstuvwxyz0123456789'
      let s = ''
      for (let i = 0; i < n; i++) s += abc[int(abc.length)]
      return s
    },
  }
}
