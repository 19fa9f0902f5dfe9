/**
 * The start program's command line and its one line of stdout: `--help`/`-h` asks for the usage,
 * anything else unknown is an error, and `readyLine` is what tools (and the e2e harness) wait
 * for to know the stack is up.
 */

export type CliRequest = { kind: 'help' } | { kind: 'run' } | { kind: 'error'; message: string }

export function parseArgs(argv: string[]): CliRequest {
  if (argv.some((a) => a === '--help' || a === '-h')) return { kind: 'help' }
  const unknown = argv.filter((a) => a !== '--')
  return unknown.length === 0
    ? { kind: 'run' }
    : { kind: 'error', message: `unknown argument: ${unknown.join(' ')}` }
}

/** The single line printed on stdout when the stack is ready. */
export function readyLine(url: string, kubeconfig: string): string {
  return `edgeplane ready at ${url} (kubeconfig: ${kubeconfig})`
}

/** The URL and kubeconfig path of a ready line, or undefined for any other line. */
export function parseReadyLine(line: string): { url: string; kubeconfig: string } | undefined {
  const m = /^edgeplane ready at (\S+) \(kubeconfig: (.+)\)$/.exec(line.trim())
  return m?.[1] && m[2] ? { url: m[1], kubeconfig: m[2] } : undefined
}
