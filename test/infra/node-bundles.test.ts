/**
 * The version check that opens each Node bundle: run with a stand-in `process`, it ends an older
 * Node with one plain line and exit code 1, and lets MIN_NODE and newer through untouched.
 */
import { describe, expect, it } from 'vitest'
import { MIN_NODE, NODE_VERSION_CHECK } from '../../infra/node-bundles.ts'

function runCheck(version: string): { exitCode?: number; stderr: string } {
  const out: { exitCode?: number; stderr: string } = { stderr: '' }
  const fakeProcess = {
    version: `v${version}`,
    versions: { node: version },
    stderr: { write: (s: string) => (out.stderr += s) },
    exit: (code: number) => {
      out.exitCode = code
    },
  }
  new Function('process', NODE_VERSION_CHECK)(fakeProcess)
  return out
}

describe('NODE_VERSION_CHECK', () => {
  it.each(['20.20.2', '22.11.0', '18.0.0'])('ends Node %s with a plain message', (v) => {
    const r = runCheck(v)
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toBe(
      `edgeplane: this program needs Node.js >= ${MIN_NODE.join('.')}; this is v${v}\n`
    )
  })

  it.each(['22.12.0', '22.23.3', '24.1.0'])('lets Node %s through', (v) => {
    expect(runCheck(v)).toEqual({ stderr: '' })
  })
})
