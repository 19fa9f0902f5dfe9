import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { watchParent } from '../../../infra/local/parent-watch.ts'
import { waitUntil } from '../../helpers/wait-until.ts'

describe('watchParent', () => {
  it('stays quiet while the parent lives', async () => {
    let gone = false
    const w = watchParent(() => {
      gone = true
    }, 10)
    await new Promise((r) => setTimeout(r, 100))
    w.stop()
    expect(gone).toBe(false)
  })

  it('notices when the parent exits (an orphaned grandchild reports it)', async () => {
    const url = new URL('../../../infra/local/parent-watch.ts', import.meta.url).pathname
    const grandchild = [
      `import { watchParent } from ${JSON.stringify(url)}`,
      "watchParent(() => { console.log('parent gone'); process.exit(0) }, 20)",
      "console.log('watching')",
      'setInterval(() => {}, 1000)',
    ].join('\n')
    const parentScript = [
      "const { spawn } = require('node:child_process')",
      `const c = spawn(process.execPath, ['--experimental-strip-types', '--input-type=module', '-e', ${JSON.stringify(grandchild)}], { stdio: ['ignore', 'inherit', 'inherit'] })`,
      'setInterval(() => {}, 1000)',
    ].join('\n')
    const parent = spawn(process.execPath, ['-e', parentScript], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    parent.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    // The parent goes only once the grandchild watches: a grandchild that starts after its parent
    // left (a loaded machine took over 500 ms to start one) was born an orphan and sees no change.
    await waitUntil(() => out.includes('watching'), { withinMs: 45_000 })
    parent.kill('SIGKILL')
    await waitUntil(() => out.includes('parent gone'), { withinMs: 45_000 })
    expect(out).toContain('parent gone')
  })
})
