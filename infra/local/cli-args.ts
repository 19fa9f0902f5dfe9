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

/** Where the dashboard of a hub at `url` is served (functions/dashboard/). */
export const dashboardUrl = (url: string) => `${url.replace(/\/+$/, '')}/ui/`

/** The single line printed on stdout when the stack is ready (the kubeconfig path last: any text). */
export function readyLine(url: string, kubeconfig: string): string {
  return `edgeplane ready at ${url} (dashboard: ${dashboardUrl(url)}, kubeconfig: ${kubeconfig})`
}

export type ReadyInfo = { url: string; dashboard: string; kubeconfig: string }

/** The URLs and kubeconfig path of a ready line, or undefined for any other line. */
export function parseReadyLine(line: string): ReadyInfo | undefined {
  const m = /^edgeplane ready at (\S+) \(dashboard: (\S+), kubeconfig: (.+)\)$/.exec(line.trim())
  return m?.[1] && m[2] && m[3] ? { url: m[1], dashboard: m[2], kubeconfig: m[3] } : undefined
}
