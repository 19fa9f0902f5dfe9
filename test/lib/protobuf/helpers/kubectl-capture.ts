/**
 * Captures what kubectl sends for one generator case: runs it with `--dry-run=client -o json`
 * (what kubectl means to send, as JSON) and then for real against a capture hub (what it does
 * send, as protobuf), with a private discovery cache. `requireKubectl` fails clearly when the
 * kubectl binary is missing.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { CaptureHub } from './capture-hub.ts'
import { type CaseFiles, type GeneratorCase, PLACEHOLDER_FILES } from './generator-cases.ts'

const run = promisify(execFile)

export async function requireKubectl(): Promise<string> {
  try {
    const { stdout } = await run('kubectl', ['version', '--client', '-o', 'json'])
    const v = JSON.parse(stdout) as { clientVersion?: { gitVersion?: string } }
    return v.clientVersion?.gitVersion ?? 'unknown'
  } catch (e) {
    throw new Error(
      `kubectl is required for the protobuf capture tests and could not be run: ${String(e)}`
    )
  }
}

export type KubectlResult = { code: number; stdout: string; stderr: string }

/** `args` with `flags` added before any `--` (after it they would belong to the container command). */
export function withFlags(args: string[], flags: string[]): string[] {
  const dash = args.indexOf('--')
  return dash < 0 ? [...args, ...flags] : [...args.slice(0, dash), ...flags, ...args.slice(dash)]
}

export async function kubectl(
  hub: CaptureHub,
  cacheDir: string,
  args: string[]
): Promise<KubectlResult> {
  try {
    const { stdout, stderr } = await run('kubectl', withFlags(args, [`--cache-dir=${cacheDir}`]), {
      env: { ...process.env, KUBECONFIG: hub.kubeconfig },
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? String(e) }
  }
}

export type CapturedCase = {
  name: string
  args: string[]
  body: Uint8Array
  expected: unknown
  created: KubectlResult
}

/** Runs one case: dry run for the expected JSON, then the real create for the bytes. */
export async function captureCase(
  hub: CaptureHub,
  opts: { cacheDir: string; files: CaseFiles },
  c: GeneratorCase
): Promise<CapturedCase> {
  const args = c.args(opts.files)
  const dry = await kubectl(hub, opts.cacheDir, withFlags(args, ['--dry-run=client', '-o', 'json']))
  if (dry.code !== 0)
    throw new Error(`kubectl ${args.join(' ')} --dry-run=client failed: ${dry.stderr}`)
  const before = hub.captured.length
  const created = await kubectl(hub, opts.cacheDir, args)
  const bodies = hub.captured.slice(before)
  if (bodies.length !== 1)
    throw new Error(
      `kubectl ${args.join(' ')} sent ${bodies.length} protobuf bodies (${created.stderr})`
    )
  return {
    name: c.name,
    args: c.args(PLACEHOLDER_FILES),
    body: bodies[0]!.body,
    expected: JSON.parse(dry.stdout),
    created,
  }
}
