/**
 * Spotting local endpoints where production settings or shipped code should have none: URLs and
 * host:port pairs on a loopback or wildcard address (127.x.x.x, 0.0.0.0, localhost, [::1], [::])
 * and URLs on the default ports of dynalite (4567) and DynamoDB Local (8000). A URL whose host is
 * built at run time (`http://localhost${path}`, as hono's test helper writes) is not an endpoint.
 * Used by `npm run deploy` (infra/deploy.ts) and the tests of the production bundle.
 */

const HOST = String.raw`(?:127(?:\.\d{1,3}){3}|0\.0\.0\.0|localhost|\[::1?\])`

const PATTERNS = [
  // a URL on a local host: http://127.0.0.1, https://localhost/x, ws://[::1]:9
  new RegExp(String.raw`\b[a-z][a-z0-9+.-]*://${HOST}(?![\w$.-])`, 'gi'),
  // host:port on a local host
  new RegExp(String.raw`(?<![\w.-])${HOST}:\d{1,5}\b`, 'gi'),
  // any URL on dynalite's or DynamoDB Local's default port
  /\bhttps?:\/\/[^\s"'`/]+:(?:4567|8000)\b/gi,
]

const LOCAL_HOST = new RegExp(`^${HOST}$`, 'i')

/** The local endpoints named in `text` (code or a setting), each once, in order of discovery. */
export function findLocalEndpoints(text: string): string[] {
  const found = new Set<string>()
  for (const pattern of PATTERNS) for (const m of text.matchAll(pattern)) found.add(m[0])
  return [...found]
}

/**
 * Problems with settings meant for production: every variable whose value names a local endpoint
 * or is a local host by itself (`DDB_ENDPOINT = "127.0.0.1"`), as `NAME=value (endpoint)`.
 */
export function localSettings(vars: Record<string, unknown>): string[] {
  const problems: string[] = []
  for (const [name, value] of Object.entries(vars)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    const hits = findLocalEndpoints(text)
    if (LOCAL_HOST.test(text.trim())) hits.push(text.trim())
    if (hits.length) problems.push(`${name}=${text} (${hits.join(', ')})`)
  }
  return problems
}
