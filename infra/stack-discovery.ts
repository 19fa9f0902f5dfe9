/**
 * How every CLI (edge:bootstrap, token, fuzz, store-check) finds the running local stack, one way
 * for all: its data folder is EDGEPLANE_DATA when set (relative to the working directory, as
 * `npm start` resolves it), else the first `.edgeplane/` holding a stack.json among the folder
 * the command was typed in (npm's INIT_CWD), the working directory and the repository root; its
 * stack.json (local/stack-info.ts) gives the hub URL, admin token file and certificate. A hub URL
 * is the local stack's when it names the same scheme and port on a loopback host (127.0.0.1,
 * localhost and ::1 are one), so `--hub https://localhost:8787` still trusts the stack's
 * certificate. A request that fails on TLS is explained naming `--ca-file` and the stack's
 * certificate (`tlsHint`), never left as a bare `fetch failed`.
 */
import { join, relative, resolve } from 'node:path'
import { readStackInfo, type StackInfo } from './local/stack-info.ts'
import { REPO_ROOT } from './repo-root.ts'

export const DEFAULT_DATA_DIR = '.edgeplane'

export type FoundStack = {
  /**
   * The data folder: where stack.json was found, else EDGEPLANE_DATA, else the repository's
   * `.edgeplane/`, where `npm start` keeps it by default.
   */
  dataDir: string
  /** The running stack's stack.json, when one was found. */
  info: StackInfo | undefined
}

type Env = Record<string, string | undefined>

/** The data folders looked at, in order (one when EDGEPLANE_DATA is set). */
export function dataDirCandidates(env: Env, cwd: string, repoRoot = REPO_ROOT): string[] {
  if (env.EDGEPLANE_DATA) return [resolve(cwd, env.EDGEPLANE_DATA)]
  const bases = [env.INIT_CWD || cwd, cwd, repoRoot]
  return [...new Set(bases.map((b) => resolve(b, DEFAULT_DATA_DIR)))]
}

/** The first candidate folder with a readable stack.json, else the last (see FoundStack). */
export async function findLocalStack(
  env: Env,
  cwd: string,
  read: (path: string) => Promise<StackInfo | undefined> = readStackInfo,
  repoRoot = REPO_ROOT
): Promise<FoundStack> {
  const candidates = dataDirCandidates(env, cwd, repoRoot)
  for (const dataDir of candidates) {
    const info = await read(join(dataDir, 'stack.json'))
    if (info) return { dataDir, info }
  }
  return { dataDir: candidates[candidates.length - 1] as string, info: undefined }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

function origin(url: string): string | undefined {
  try {
    const u = new URL(url)
    const host = LOOPBACK.has(u.hostname) ? 'loopback' : u.hostname
    return `${u.protocol}//${host}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`
  } catch {
    return undefined
  }
}

/** True when `url` is the hub of the stack (see the header: loopback names are one). */
export function isStackHub(url: string, stack: StackInfo | undefined): boolean {
  if (!stack) return false
  const a = origin(url)
  return a !== undefined && a === origin(stack.url)
}

/** The stack's certificate to trust for `url`, when `url` is the stack's https hub. */
export function stackCaFor(url: string, stack: StackInfo | undefined): string | undefined {
  return stack && url.startsWith('https:') && isStackHub(url, stack) ? stack.caFile : undefined
}

/** Node's (OpenSSL's) words for a certificate it refused, for errors that kept only the text. */
const TLS_WORDS =
  /self[- ]signed certificate(?: in certificate chain)?|unable to verify the first certificate|unable to get (?:local )?issuer certificate|certificate has expired|certificate is not yet valid|Hostname\/IP does not match certificate's altnames[^;)]*|wrong version number/

/**
 * What failed on TLS in `err` or its causes: Node's message for an error whose code is a TLS one
 * (say "self-signed certificate"), else such words found in a message.
 */
export function tlsProblem(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown }
    const tls = typeof code === 'string' && /CERT|SSL|TLS|SELF_SIGNED/.test(code)
    if (tls) return typeof message === 'string' && message ? message : code
    const words = typeof message === 'string' ? TLS_WORDS.exec(message)?.[0] : undefined
    if (words) return words
    e = cause
  }
  return undefined
}

/** A path as the user would type it: relative to `cwd` when it lies below it. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path)
  return rel && !rel.startsWith('..') ? rel : path
}

/**
 * The line for a TLS failure: `TLS: <why>; pass --ca-file <cert.pem> (the local stack's is
 * <path>)`, or undefined when `err` is no TLS failure.
 */
export function tlsHint(err: unknown, found: FoundStack, cwd: string): string | undefined {
  const why = tlsProblem(err)
  if (why === undefined) return undefined
  const cert = found.info?.caFile ?? join(found.dataDir, 'tls', 'cert.pem')
  return `TLS: ${why}; pass --ca-file <cert.pem> (the local stack's is ${shown(cert, cwd)})`
}

/** `err`'s message, with the TLS hint in place of the transport's wording when it is one. */
export function failureText(err: unknown, found: FoundStack, cwd: string): string {
  const message = err instanceof Error ? err.message : String(err)
  const hint = tlsHint(err, found, cwd)
  if (!hint) return message
  const what = /^([A-Z]+ https?:\/\/\S+): /.exec(message)?.[1]
  return what ? `${what}: ${hint}` : hint
}
