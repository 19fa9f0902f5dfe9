/**
 * The dashboard's page as it ships (functions/dashboard/assets/ui/): wrangler serves that folder
 * as static assets in production and in the `local` environment npm start runs; index.html loads
 * only files of the folder (no CDN, no other origin); every module import resolves to a file
 * there (an empty `data:,` icon aside, which spares the browser a request); nothing stores a token (no Web Storage) or writes markup from data (no innerHTML /
 * outerHTML / insertAdjacentHTML / document.write: names and messages are user data); every file
 * says what it is in a header comment.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'
import { LOCAL_ENV } from '../../../infra/local/wrangler-process.ts'
import { REPO_ROOT } from '../../../infra/repo-root.ts'

const CONFIG = join(REPO_ROOT, 'wrangler.toml')
const UI = join(REPO_ROOT, 'functions/dashboard/assets/ui')

async function files(ext: string): Promise<string[]> {
  return (await readdir(UI)).filter((f) => f.endsWith(ext)).sort()
}

describe('the dashboard page as shipped', () => {
  it('is the static assets folder of production and of the local environment', () => {
    for (const env of [undefined, LOCAL_ENV]) {
      const c = unstable_readConfig({ config: CONFIG, env })
      expect(c.assets?.directory && resolve(REPO_ROOT, c.assets.directory)).toBe(
        join(REPO_ROOT, 'functions/dashboard/assets')
      )
    }
    expect(existsSync(join(UI, 'index.html'))).toBe(true)
  })

  it('loads only files of its own folder', async () => {
    const html = await readFile(join(UI, 'index.html'), 'utf8')
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '')
    expect(refs.length).toBeGreaterThan(1)
    for (const ref of refs) {
      if (ref.startsWith('#') || ref === 'data:,') continue
      expect(ref, ref).not.toMatch(/^[a-z]+:|^\/\//i)
      expect(existsSync(join(UI, ref.replace(/^\.\//, '').split(/[?#]/)[0] ?? '')), ref).toBe(true)
    }
  })

  it('imports only modules that exist beside it', async () => {
    for (const f of await files('.js')) {
      const text = await readFile(join(UI, f), 'utf8')
      const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map(
        (m) => m[1] ?? ''
      )
      for (const s of specs) {
        expect(s, `${f}: ${s}`).toMatch(/^\.\/[a-z0-9-]+\.js$/)
        expect(existsSync(join(UI, s)), `${f}: ${s}`).toBe(true)
      }
    }
  })

  it('keeps tokens out of storage and data out of markup', async () => {
    for (const f of await files('.js')) {
      const text = await readFile(join(UI, f), 'utf8')
      for (const banned of [
        /localStorage/,
        /sessionStorage/,
        /\.innerHTML\s*=/,
        /\.outerHTML\s*=/,
        /insertAdjacentHTML/,
        /document\.write/,
        /\beval\(/,
      ])
        expect(text, `${f} uses ${banned}`).not.toMatch(banned)
    }
  })

  it('has a header comment in every file', async () => {
    for (const f of [...(await files('.js')), ...(await files('.css'))]) {
      const text = (await readFile(join(UI, f), 'utf8')).trimStart()
      expect(text.startsWith('/*') || text.startsWith('//'), f).toBe(true)
    }
    const html = (await readFile(join(UI, 'index.html'), 'utf8')).trimStart()
    expect(html.slice(0, html.search(/<body/i))).toContain('<!--')
  })
})
