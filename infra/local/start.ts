/**
 * `npm start`: the local edgeplane center (see usage.ts for what it starts and writes). Parses the
 * command line and environment, starts the stack, prints one ready line on stdout, and on Ctrl-C,
 * SIGTERM or SIGHUP, or when its parent goes away — also while still starting — stops every part
 * (wrangler's whole process group included) and exits 0. If the hub dies on its own and cannot be
 * restarted (hub-supervisor.ts), or starting fails, it prints the reason with the tail of
 * wrangler's log and exits 1. Other output is JSON log lines on stderr. Everything it
 * and its children write is created owner-only (umask 077): the data folder holds every Secret.
 */
import { createLogger } from '../../lib/log.ts'
import { REPO_ROOT } from '../repo-root.ts'
import { parseArgs, readyLine } from './cli-args.ts'
import { readLocalConfig } from './local-config.ts'
import type { LocalStack } from './local-stack.ts'
import { watchParent } from './parent-watch.ts'
import { USAGE } from './usage.ts'

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

async function main(): Promise<void> {
  process.umask(0o077)
  const req = parseArgs(process.argv.slice(2))
  if (req.kind === 'help') return void process.stdout.write(USAGE)
  if (req.kind === 'error') fail(`${req.message}\n\n${USAGE}`, 2)
  let cfg: ReturnType<typeof readLocalConfig>
  try {
    cfg = readLocalConfig(process.env, process.cwd())
  } catch (e) {
    fail(`edgeplane: ${(e as Error).message}`, 2)
  }
  const log = createLogger({
    level: cfg.logLevel,
    bindings: { component: 'local' },
    sink: (line) => process.stderr.write(`${line}\n`),
  })
  // Loaded only now, so that --help and bad arguments need nothing beyond this folder.
  const { startLocalStack } = await import('./local-stack.ts')
  const abort = new AbortController()
  let stack: LocalStack | undefined
  let stopping = false
  const stopAndExit = async (code: number) => {
    stopping = true
    await stack?.stop()
    process.exit(code)
  }
  const onSignal = (signal: string) => {
    log.info('stopping', { signal })
    if (!stack) return abort.abort(new Error(`interrupted by ${signal}`))
    if (!stopping) void stopAndExit(0)
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal)
  watchParent(() => onSignal('parent exited'))
  try {
    stack = await startLocalStack(cfg, { repoRoot: REPO_ROOT, log, signal: abort.signal })
  } catch (e) {
    if (abort.signal.aborted) process.exit(0)
    fail(`edgeplane failed to start: ${(e as Error).message}`, 1)
  }
  if (abort.signal.aborted) return stopAndExit(0)
  void stack.failed.then((reason) => {
    if (stopping) return
    process.stderr.write(`edgeplane stopped unexpectedly: ${reason}\n`)
    void stopAndExit(1)
  })
  process.stdout.write(`${readyLine(stack.info.url, stack.info.kubeconfig)}\n`)
}

await main()
