/**
 * Runs the real `kubectl` binary (from PATH) against a local stack: `--kubeconfig` is always the
 * stack's, a per-stack KUBECACHEDIR keeps discovery caches out of the user's home, and stdin can
 * carry a manifest. `startKubectl` runs a long-lived one (e.g. `get -w`) whose output can be read
 * while it runs and which is killed by `stop()`. A kubectl that exits before reading its stdin (a
 * command that needs none, answered at once) leaves the pipe broken: that EPIPE is not the test's
 * failure, kubectl's exit code and output are its answer.
 */
import { type ChildProcess, spawn } from 'node:child_process'

export type KubectlResult = { code: number | null; stdout: string; stderr: string }

export type KubectlOptions = {
  input?: string
  context?: string
  timeoutMs?: number
}

export type KubectlEnv = { kubeconfig: string; cacheDir: string }

function command(env: KubectlEnv, args: string[], context: string | undefined): string[] {
  return ['--kubeconfig', env.kubeconfig, ...(context ? ['--context', context] : []), ...args]
}

/** Writes `input` (if any) to kubectl's stdin and closes it, a broken pipe ignored (see above). */
function closeInput(child: ChildProcess, input?: string) {
  child.stdin?.on('error', () => {})
  child.stdin?.end(input ?? '')
}

function spawnKubectl(env: KubectlEnv, args: string[], context: string | undefined): ChildProcess {
  return spawn('kubectl', command(env, args, context), {
    env: { ...process.env, KUBECACHEDIR: env.cacheDir, KUBECONFIG: env.kubeconfig },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

export function runKubectl(
  env: KubectlEnv,
  args: string[],
  opts: KubectlOptions = {}
): Promise<KubectlResult> {
  const child = spawnKubectl(env, args, opts.context)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  closeInput(child, opts.input)
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export type BackgroundKubectl = {
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
  /**
   * Resolves with stdout's complete lines once they satisfy `test` (a row kubectl is still writing
   * is left out), rejects after `timeoutMs`.
   */
  waitFor(test: (stdout: string) => boolean, timeoutMs?: number): Promise<string>
  /**
   * Waits for kubectl to exit by itself (a `rollout status` or `wait` that has printed its answer
   * still has to exit: stopping it then would be kubectl's SIGTERM exit, code 1); after
   * `timeoutMs` it is stopped.
   */
  exited(timeoutMs?: number): Promise<KubectlResult>
  stop(): Promise<KubectlResult>
}

export function startKubectl(
  env: KubectlEnv,
  args: string[],
  opts: { context?: string } = {}
): BackgroundKubectl {
  const child = spawnKubectl(env, args, opts.context)
  closeInput(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code))
  )
  // kubectl's table writer writes a row cell by cell, so a read can end mid-row: conditions and
  // callers see the complete lines only.
  const lines = () => out.slice(0, out.lastIndexOf('\n') + 1)
  const waitFor = async (test: (s: string) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs
    while (!test(lines())) {
      if (Date.now() > deadline)
        throw new Error(
          `kubectl ${args.join(' ')}: condition not met in ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`
        )
      await new Promise((r) => setTimeout(r, 100))
    }
    return lines()
  }
  return {
    stdout: () => out,
    stderr: () => err,
    waitFor,
    exited: async (timeoutMs = 30_000) => {
      const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs)
      const code = await closed
      clearTimeout(timer)
      return { code, stdout: out, stderr: err }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return { code: await closed, stdout: out, stderr: err }
    },
  }
}

/** Splits the concatenated JSON documents kubectl prints in watch mode (`-w -o json`). */
export function splitJsonStream(text: string): unknown[] {
  const docs: unknown[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{') {
      if (depth === 0) start = i
      depth++
    } else if (ch === '}') {
      depth--
      if (depth === 0 && start >= 0) docs.push(JSON.parse(text.slice(start, i + 1)))
    }
  }
  return docs
}

/** stdout of a successful run; throws with kubectl's stderr otherwise (a readable test failure). */
export function ok(r: KubectlResult): string {
  if (r.code !== 0) throw new Error(`kubectl failed (${r.code}): ${r.stderr || r.stdout}`)
  return r.stdout
}

/** The parsed `-o json` output of a successful run. */
export function okJson<T = Record<string, unknown>>(r: KubectlResult): T {
  return JSON.parse(ok(r)) as T
}
