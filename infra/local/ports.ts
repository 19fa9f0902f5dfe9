/**
 * Port helpers for the local stack. Only EDGEPLANE_PORT is chosen by the user; every other port
 * (dynalite, the wrangler inspector, each simulated edge) is picked free, so two stacks with
 * different EDGEPLANE_PORTs and data folders never collide. `assertPortFree` turns "address in
 * use" into a clear message before anything is started.
 *
 * A picked port is listened on later, and a simulated edge listens on the same one after every
 * restart (its URL is in its kubeconfig). So it is picked below the kernel's ephemeral range when
 * that range is known (Linux: /proc/sys/net/ipv4/ip_local_port_range): the kernel hands ports of
 * that range to every outgoing connection and every `listen(0)`, and under a busy test run one of
 * them took an edge's port, which then failed to listen at each restart (EADDRINUSE).
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'

/** The lowest port picked outside the ephemeral range. */
const LOWEST = 20_000
const ATTEMPTS = 30
/**
 * Ports this process handed out, never handed out again: the stack picks several at once (its
 * Worker, its edges), each free until its program listens.
 */
const handedOut = new Set<number>()

/** The kernel's ephemeral port range, when it says (Linux). */
export async function ephemeralRange(
  file = '/proc/sys/net/ipv4/ip_local_port_range'
): Promise<[number, number] | undefined> {
  try {
    const [lo, hi] = (await readFile(file, 'utf8')).trim().split(/\s+/).map(Number)
    return lo && hi && lo <= hi ? [lo, hi] : undefined
  } catch {
    return undefined
  }
}

/** Listens on port 0 of `host`, reads the port the OS chose, and releases it. */
function portFromOs(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.once('error', reject)
    srv.listen(0, host, () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))))
    })
  })
}

export type PickOptions = {
  /** The ephemeral range (default: the kernel's, when known). */
  range?: [number, number] | undefined
  random?: () => number
}

/**
 * A port free on `host` now: a random one between 20000 and the ephemeral range's start, else
 * (no range known, too narrow a gap, or nothing free after 30 tries) one the OS picks.
 */
export async function pickFreePort(host = '127.0.0.1', o: PickOptions = {}): Promise<number> {
  const range = 'range' in o ? o.range : await ephemeralRange()
  const random = o.random ?? Math.random
  const top = range ? range[0] - 1 : 0
  if (top - LOWEST >= 1000) {
    for (let i = 0; i < ATTEMPTS; i++) {
      const port = LOWEST + Math.floor(random() * (top - LOWEST + 1))
      if (handedOut.has(port)) continue
      handedOut.add(port)
      if (await isPortFree(port, host)) return port
    }
  }
  return portFromOs(host)
}

/** True when something can listen on `host:port` right now. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer()
    srv.unref()
    srv.once('error', () => resolve(false))
    srv.listen(port, host, () => srv.close(() => resolve(true)))
  })
}

/** Throws a readable error when `port` is taken (another stack, another program). */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  if (!(await isPortFree(port, host)))
    throw new Error(`port ${host}:${port} is already in use; set EDGEPLANE_PORT to another port`)
}
