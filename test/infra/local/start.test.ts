import { describe, expect, it } from 'vitest'
import { runStartProgram } from '../../e2e/helpers/stack.ts'

describe('npm start (the start program) without starting anything', () => {
  it('--help prints the usage: env vars, what it starts, files it writes', async () => {
    const r = await runStartProgram({}, ['--help'])
    expect(r.code).toBe(0)
    for (const word of [
      'EDGEPLANE_PORT',
      'EDGEPLANE_DATA',
      'dynalite',
      'wrangler dev',
      'kubeconfig',
      'admin-token',
      'stack.json',
    ])
      expect(r.stdout).toContain(word)
  })

  it('rejects unknown arguments with exit code 2', async () => {
    const r = await runStartProgram({}, ['--bogus'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown argument: --bogus')
    expect(r.stdout).toBe('')
  })

  it('rejects a bad EDGEPLANE_PORT with exit code 2, naming it', async () => {
    const r = await runStartProgram({ EDGEPLANE_PORT: 'eighty' })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('EDGEPLANE_PORT')
  })
})
