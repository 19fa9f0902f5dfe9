/**
 * Opens a fuzz target: either the in-process hub of local-hub.ts (the default) or any running
 * hub given by URL, admin token and CA certificate (say `npm start`'s at https://127.0.0.1:8787
 * with .edgeplane/admin-token). Either way the fixture is seeded through the API (seed.ts). A
 * remote hub has no tenant token unless one is given; requests needing it are then skipped.
 */
import { DEFAULT_FIXTURE, spacePath } from './fixture.ts'
import { LOCAL_ADMIN_TOKEN, LOCAL_USER_TOKEN, startLocalHub } from './local-hub.ts'
import type { FuzzHub } from './runner.ts'
import { seed } from './seed.ts'
import type { Target } from './send.ts'

export type SessionOptions = {
  url?: string
  token?: string
  userToken?: string
  ca?: string
  timeoutMs?: number
  heapMb?: number
}

export type Session = { hub: FuzzHub; close(): Promise<void> }

export async function openSession(opts: SessionOptions): Promise<Session> {
  const base = DEFAULT_FIXTURE
  const timing = { timeoutMs: opts.timeoutMs ?? 30_000, watchMs: 300, futureWatchMs: 5_000 }
  if (opts.url) {
    if (!opts.token) throw new Error('--url needs the admin token (--token or --token-file)')
    const target: Target = {
      url: new URL(opts.url),
      ...(opts.ca ? { ca: opts.ca } : {}),
      tokens: { admin: opts.token, ...(opts.userToken ? { user: opts.userToken } : {}) },
      ...timing,
    }
    const seeded = await seed(target, base)
    target.tokens.edge = seeded.edge
    target.tokens['other-edge'] = seeded.otherEdge
    return { hub: { target, fixture: seeded.fixture }, close: async () => undefined }
  }
  const local = await startLocalHub({
    userSpace: spacePath(base),
    ...(opts.heapMb ? { heapMb: opts.heapMb } : {}),
  })
  try {
    const target: Target = {
      url: new URL(local.url),
      tokens: { admin: LOCAL_ADMIN_TOKEN, user: LOCAL_USER_TOKEN },
      ...timing,
    }
    const seeded = await seed(target, base)
    target.tokens.edge = seeded.edge
    target.tokens['other-edge'] = seeded.otherEdge
    const hub: FuzzHub = {
      target,
      fixture: seeded.fixture,
      restart: async () => {
        await local.restart()
        target.url = new URL(local.url)
      },
      errors: () => {
        const out = local.errors()
        const reason = local.exitReason()
        return reason
          ? [JSON.stringify({ msg: 'hub worker ended', error: { message: reason } }), ...out]
          : out
      },
    }
    return { hub, close: () => local.close() }
  } catch (e) {
    await local.close()
    throw e
  }
}
