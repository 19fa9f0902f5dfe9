/**
 * For the edge-registration e2e: the README's shell block of a section, as written, run by bash
 * in a folder of the repository (so `npm run` finds the package and `--out` lands there) against a
 * stack through KUBECONFIG and EDGEPLANE_DATA; a bare simulated edge cluster of the stack's own
 * (infra/edge-sim/main.ts on its dynalite, not joined) with a kubeconfig context of its name; the
 * agent Secret the bootstrap manifests put at an edge; an edge agent process configured from it,
 * as a pod mounting it would be (its output kept, every poll logged: debug); and the text of a /metrics or /readyz on a
 * local port. Every process started here is stopped by its own `stop()`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { waitForReadyLine } from '../../../infra/edge-sim/ready-line.ts'
import { writePrivateFile } from '../../../infra/local/data-dir.ts'
import { type SecretValues, secretValues } from '../../../infra/local/edge-secret.ts'
import { renderKubeconfig } from '../../../infra/local/kubeconfig.ts'
import { storeKeyEnv } from '../../../infra/local/store-key.ts'
import { extractBlocks } from '../../helpers/readme-blocks.ts'
import { ok } from './kubectl.ts'
import { type ProgramRun, runProgram } from './run-program.ts'
import { type E2eStack, REPO_ROOT } from './stack.ts'

/**
 * The README shell block marked `<!-- test: e2e: <testFile> -->` (test/helpers/readme-blocks.ts),
 * as written, without its last newline; exactly one must be.
 */
export async function readmeBlockRunBy(testFile: string): Promise<string> {
  const text = await readFile(join(REPO_ROOT, 'README.md'), 'utf8')
  const marked = extractBlocks(text, 'README.md').blocks.filter(
    (b) => b.marker?.kind === 'e2e' && b.marker.path === testFile
  )
  if (marked.length !== 1)
    throw new Error(`README.md has ${marked.length} blocks marked e2e: ${testFile}, not one`)
  return (marked[0]?.text ?? '').replace(/\n$/, '')
}

export type Shell = {
  dir: string
  env: Record<string, string>
  run(script: string): Promise<ProgramRun>
}

/** bash in `dir` (inside the repository) with kubectl and the CLIs pointed at `stack`. */
export function shellFor(stack: E2eStack, dir: string, kubeconfigs: string[]): Shell {
  const env = {
    KUBECONFIG: [stack.kubeconfig, ...kubeconfigs].join(':'),
    KUBECACHEDIR: join(dir, '.kube-cache'),
    EDGEPLANE_DATA: stack.dataDir,
    npm_config_update_notifier: 'false',
  }
  return {
    dir,
    env,
    run: (script) =>
      runProgram('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env, timeoutMs: 170_000 }),
  }
}

type Child = { child: ChildProcess; output(): string; stop(): Promise<void> }

function started(child: ChildProcess): Child {
  let output = ''
  const keep = (d: Buffer) => {
    output += d.toString()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** A simulated edge cluster `name` on the stack's dynalite, with a kubeconfig of its context. */
export async function startBareEdge(
  stack: E2eStack,
  name: string,
  dir: string
): Promise<Child & { kubeconfig: string }> {
  const info = stack.info()
  const key = JSON.parse(await readFile(info.dynalite.keyFile ?? '', 'utf8'))
  const tokenFile = join(dir, `${name}-admin-token`)
  const child = spawn(
    process.execPath,
    [
      ...['--experimental-strip-types', 'infra/edge-sim/main.ts', '--name', name],
      ...['--ddb-endpoint', info.dynalite.endpoint, '--token-file', tokenFile],
      ...['--cert-dir', dirname(info.caFile), '--port', '0'],
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...storeKeyEnv(key), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  const edge = started(child)
  const ready = await waitForReadyLine(child.stdout as NonNullable<typeof child.stdout>, 90_000)
  const token = (await readFile(tokenFile, 'utf8')).trim()
  const kubeconfig = join(dir, `${name}.kubeconfig`)
  const extra = [{ name, server: ready.url, token }]
  const text = renderKubeconfig({
    hubUrl: ready.url,
    adminToken: token,
    user: `${name}-admin`,
    caPem: stack.ca(),
    spaces: [],
    extra,
  })
  await writePrivateFile(kubeconfig, text)
  return { ...edge, kubeconfig }
}

/** The agent Secret the bootstrap manifests made at the edge of `context`. */
export async function agentSecret(shell: Shell, context: string): Promise<SecretValues> {
  const get = `kubectl --context ${context} -n edgeplane-system get secret edgeplane-agent -o json`
  return secretValues(JSON.parse(ok(await shell.run(get))))
}

/** An edge agent polling every second, configured from the agent Secret at `context`. */
export async function startAgentFromSecret(
  shell: Shell,
  context: string,
  kubeconfig: string
): Promise<Child & { refresh(): Promise<void> }> {
  const dir = join(shell.dir, `${context}-agent`)
  await mkdir(dir, { recursive: true })
  const tokenFile = join(dir, 'token')
  const caFile = join(dir, 'ca.crt')
  /** Writes the Secret's token and CA to the files the agent reads, as a Secret mount would. */
  const refresh = async () => {
    const s = await agentSecret(shell, context)
    await writePrivateFile(tokenFile, s.token ?? '')
    await writePrivateFile(caFile, s.ca ?? '')
    return s
  }
  const s = await refresh()
  const child = spawn(
    process.execPath,
    [
      ...['--experimental-strip-types', 'infra/edge-agent/main.ts'],
      ...['--center', s.center ?? '', '--mailbox', s.mailbox ?? '', '--token-file', tokenFile],
      ...['--center-ca', caFile, '--kubeconfig', kubeconfig, '--context', context],
      ...['--state-dir', join(dir, 'state'), '--poll-interval', '1', '--health-port', 'off'],
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  return { ...started(child), refresh: async () => void (await refresh()) }
}

/** The body of GET http://127.0.0.1:<port><path>, with its status. */
export async function localGet(
  port: number,
  path: string
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`)
  return { status: res.status, text: await res.text() }
}
