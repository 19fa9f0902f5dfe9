/**
 * `npm install` must work on every platform, not only on the one the lock was made on: no package
 * the install requires may be tied to an os or cpu (npm refuses those with EBADPLATFORM where they
 * do not fit; npm's --os/--cpu overrides do not reproduce that here, so the cause is checked), and
 * the lock must record every platform's optional binaries (workerd, biome...), so `npm ci`
 * elsewhere installs locked versions. Read from package.json and package-lock.json.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

type Manifest = {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
type LockEntry = Manifest & {
  version?: string
  os?: string | string[]
  cpu?: string | string[]
  libc?: string | string[]
  optional?: boolean
}

const root = new URL('../../', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Manifest
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  lockfileVersion: number
  packages: Record<string, LockEntry>
}

const platformBound = (e: LockEntry) => e.os !== undefined || e.cpu !== undefined

/** The lock entry npm would use for `name` required by the package at `from` (node resolution). */
function resolveIn(from: string, name: string): LockEntry | undefined {
  let base = from
  for (;;) {
    const hit = lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]
    if (hit || !base) return hit
    const i = base.lastIndexOf('/node_modules/')
    base = i < 0 ? '' : base.slice(0, i)
  }
}

describe('package.json and package-lock.json install on any platform', () => {
  it('declares no platform-bound package as a dependency or devDependency', () => {
    const required = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }
    const bound = Object.keys(required).filter((name) => {
      const entry = resolveIn('', name)
      return entry !== undefined && platformBound(entry)
    })
    expect(bound).toEqual([])
  })

  it('locks every os/cpu-bound package as optional only', () => {
    const entries = Object.entries(lock.packages).filter(([path]) => path !== '')
    const bound = entries.filter(([, e]) => platformBound(e))
    expect(bound.length).toBeGreaterThan(0)
    expect(bound.filter(([, e]) => e.optional !== true).map(([path]) => path)).toEqual([])
  })

  it('records every optional dependency of every locked package (all platforms)', () => {
    const missing: string[] = []
    for (const [path, entry] of Object.entries(lock.packages))
      for (const name of Object.keys(entry.optionalDependencies ?? {}))
        if (!resolveIn(path, name)) missing.push(`${path || '(root)'} -> ${name}`)
    expect(missing).toEqual([])
    for (const name of [
      '@cloudflare/workerd-darwin-arm64',
      '@cloudflare/workerd-darwin-64',
      '@cloudflare/workerd-windows-64',
      '@biomejs/cli-darwin-arm64',
      '@biomejs/cli-win32-x64',
    ])
      expect(resolveIn('', name), name).toBeDefined()
  })

  it('is in sync with package.json (what `npm ci` requires)', () => {
    const top = lock.packages[''] ?? {}
    expect(lock.lockfileVersion).toBe(3)
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'] as const)
      expect(top[field] ?? {}, field).toEqual(pkg[field] ?? {})
    for (const [name, range] of Object.entries({
      ...pkg.dependencies,
      ...pkg.devDependencies,
      ...pkg.optionalDependencies,
    }))
      if (/^\d+\.\d+\.\d+$/.test(range)) expect(resolveIn('', name)?.version, name).toBe(range)
      else expect(resolveIn('', name), name).toBeDefined()
  })
})
