/**
 * The fuzz plan: every category's requests for a fixture, deterministic from a seed, interleaved
 * round-robin (so a shorter `count` still covers every category and the periodic health checks
 * see a mix) and cut or cycled to `count`. Cycling repeats a category's requests from a fresh
 * seed, so a larger count still holds only well-formed plans.
 */
import { bodyCases } from './gen-bodies.ts'
import { bombCases } from './gen-bombs.ts'
import { contentTypeCases } from './gen-content-types.ts'
import { edgeCases } from './gen-edge.ts'
import { hookCases } from './gen-hooks.ts'
import { identityCases } from './gen-identity.ts'
import { nameCases, pathCases } from './gen-names.ts'
import { nestingCases } from './gen-nesting.ts'
import { queryCases } from './gen-query.ts'
import { verbCases } from './gen-verbs.ts'
import { wireCases } from './gen-wire.ts'
import { createRng, type Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

type Generator = (rng: Rng, fx: Fixture) => FuzzRequest[]

export const CATEGORIES: Record<string, Generator> = {
  bodies: bodyCases,
  'content-types': contentTypeCases,
  nesting: nestingCases,
  bombs: bombCases,
  names: nameCases,
  paths: pathCases,
  query: queryCases,
  identity: identityCases,
  verbs: verbCases,
  edge: edgeCases,
  hooks: hookCases,
  wire: wireCases,
}

export type PlanOptions = {
  seed: number
  count: number
  /** Only these categories (default all). */
  categories?: string[]
}

/** All requests of one round (every category once) for `seed`. */
export function round(seed: number, fx: Fixture, categories: string[]): FuzzRequest[][] {
  return categories.map((name, i) => {
    const gen = CATEGORIES[name]
    if (!gen)
      throw new Error(
        `unknown fuzz category "${name}" (known: ${Object.keys(CATEGORIES).join(', ')})`
      )
    return gen(createRng(seed * 31 + i), fx)
  })
}

export function plan(opts: PlanOptions, fx: Fixture): FuzzRequest[] {
  const categories = opts.categories ?? Object.keys(CATEGORIES)
  const out: FuzzRequest[] = []
  for (let r = 0; out.length < opts.count; r++) {
    const lists = round(opts.seed + r * 7919, fx, categories)
    const longest = Math.max(...lists.map((l) => l.length))
    for (let i = 0; i < longest && out.length < opts.count; i++)
      for (const l of lists) {
        const item = l[i]
        if (item && out.length < opts.count) out.push(item)
      }
  }
  return out
}

/** How many requests one round holds, per category. */
export function roundSizes(seed: number, fx: Fixture): Record<string, number> {
  const names = Object.keys(CATEGORIES)
  const lists = round(seed, fx, names)
  return Object.fromEntries(names.map((n, i) => [n, lists[i]?.length ?? 0]))
}
