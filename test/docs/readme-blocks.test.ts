/**
 * The README's and infra/README.md's code blocks keep their promises without a stack: every shell
 * block carries a test marker (test/helpers/readme-blocks.ts), an inline example marked `same-as`
 * is its file word for word, and every `examples/` file the documents name exists. What the
 * `local-stack` blocks do is test/e2e/readme.test.ts's business.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../infra/repo-root.ts'
import { extractBlocks, TESTED_DOCS } from '../helpers/readme-blocks.ts'

const docs = TESTED_DOCS.map((file) => ({
  file,
  text: readFileSync(join(REPO_ROOT, file), 'utf8'),
}))
const extracted = docs.map((d) => extractBlocks(d.text, d.file))
const blocks = extracted.flatMap((e) => e.blocks)

describe('the tested documents', () => {
  it('mark every shell block, each marker well formed', () => {
    expect(extracted.flatMap((e) => e.problems)).toEqual([])
  })

  it('have local-stack blocks: the quick start runs', () => {
    const quickStart = blocks.filter(
      (b) => b.file === 'README.md' && b.marker?.kind === 'local-stack'
    )
    expect(
      quickStart.some((b) => b.text.includes('kubectl --server $WS apply -f examples/shop/'))
    ).toBe(true)
  })

  it('show inline examples exactly as their files hold them', () => {
    const same = blocks.flatMap((b) =>
      b.marker?.kind === 'same-as' ? [{ b, path: b.marker.path }] : []
    )
    expect(same.map((s) => s.path)).toContain('examples/shop/06-edgeplacement.yaml')
    for (const { b, path } of same) {
      expect(existsSync(join(REPO_ROOT, path)), `${b.file}:${b.line} names ${path}`).toBe(true)
      expect(b.text, `${b.file}:${b.line} differs from ${path}`).toBe(
        readFileSync(join(REPO_ROOT, path), 'utf8')
      )
    }
  })

  it('name for each e2e block a test that runs it', () => {
    const runBy = blocks.flatMap((b) =>
      b.marker?.kind === 'e2e' ? [{ b, path: b.marker.path }] : []
    )
    expect(runBy.map((r) => r.path)).toContain('test/e2e/edge-registration.test.ts')
    for (const { b, path } of runBy) {
      const file = join(REPO_ROOT, path)
      expect(existsSync(file), `${b.file}:${b.line} names ${path}`).toBe(true)
      expect(readFileSync(file, 'utf8'), `${path} runs no README block`).toContain(
        `readmeBlockRunBy('${path}')`
      )
    }
  })

  it('name only examples that exist', () => {
    const named = docs.flatMap((d) =>
      [...d.text.matchAll(/\bexamples\/[\w./-]*[\w/]/g)].map((m) => m[0])
    )
    expect(named.length).toBeGreaterThan(0)
    expect(named.filter((p) => !existsSync(join(REPO_ROOT, p)))).toEqual([])
  })
})
