/**
 * The vocabulary of the hostile-request fuzzer (`npm run fuzz`, test/fuzz/hostile.test.ts): what a
 * generated request is, the fixture it is aimed at, and what the runner concludes about each
 * answer. Kept in one place so the generators, the sender, the checks and the report agree.
 */

/** Which credential a request carries. `other-edge` is the edge credential of another mailbox. */
export type TokenKind = 'admin' | 'user' | 'edge' | 'other-edge' | 'bad' | 'none' | 'malformed'

/** An admin request the runner sends (and requires to succeed) before the fuzzed one. */
export type SetupStep = { method: string; path: string; body: unknown }

export type FuzzRequest = {
  /** A short category name (table rows): `bodies`, `nesting`, `bombs`, `names`, ... */
  category: string
  /** What this request tries, for the violation listing. */
  label: string
  method: string
  /** Sent exactly as written (no URL normalisation): may hold `..`, `%2e%2e`, `//`. */
  path: string
  token: TokenKind
  contentType?: string
  /** Extra headers (accept, if-none-match, ...). */
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** A write (anything but GET/HEAD/OPTIONS): its refusal must leave the stored state unchanged. */
  write: boolean
  /** A watch: the runner reads the first event(s) and hangs up. */
  watch?: boolean
  /** Asks for a resourceVersion ahead of the store: 504 ResourceVersionTooLarge is kube's answer. */
  futureRv?: boolean
  /**
   * kube refuses this request whatever the state (dot-segment names, identity changes, bad media
   * types, malformed query values...): a 2xx answer is a violation.
   */
  mustRefuse?: boolean
  /** Sent over a raw socket, for what an HTTP client library would refuse or rewrite. */
  raw?: string
  /** Admin requests run before this one (e.g. creating the victim a DELETE removes). */
  setup?: SetupStep[]
  /** Snapshot keys (fixture.ts `key`) an accepted request may change; nothing else may change. */
  touches?: string[]
  /** The object this request names: after a 2xx it must still read back as this. */
  identity?: Identity
}

export type Identity = {
  /** Its GET path. */
  path: string
  kind: string
  apiVersion: string
  name: string
  namespace?: string
}

/** Names of the fixture the generators aim at; the runner seeds it before the first request. */
export type Fixture = {
  /** The space the fuzz namespace lives in besides root (`root:<space>`). */
  space: string
  /** Its id (the `kcp.io/cluster` annotation of its objects), found when seeding. */
  spaceId?: string
  /** A namespace seeded in both root and the fuzz space. */
  namespace: string
  /** ConfigMaps seeded in the namespace. */
  configMaps: string[]
  secret: string
  deployment: string
  /** The mailbox of the seeded SyncTarget (edge API), and another one for cross-mailbox tries. */
  mailbox: string
  otherMailbox: string
  /** The inventory space holding the SyncTargets. */
  inventory: string
  syncTarget: string
}

export type Violation = {
  kind:
    | 'server-error'
    | 'not-a-status'
    | 'refused-but-stored'
    | 'accepted-hostile'
    | 'touched-other-object'
    | 'identity-changed'
    | 'no-answer'
    | 'silent-watch'
    | 'hub-unhealthy'
  request: FuzzRequest
  index: number
  status: number
  detail: string
}

/** What the sender got back. `status` 0 means no HTTP answer (connection reset, timeout). */
export type Answer = {
  status: number
  contentType: string
  body: string
  error?: string
  /** For watches: true when the stream stayed silent for the whole reading window. */
  silent?: boolean
}
