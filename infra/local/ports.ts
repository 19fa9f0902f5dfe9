/**
 * Port helpers for the local stack. Only EDGEPLANE_PORT is chosen by the user; every other port
 * (dynalite, the wrangler inspector) is picked free by the operating system, so two stacks with
 * different EDGEPLANE_PORTs and data folders never collide. `assertPortFree` turns "address in
 * use" into a clear message before anything is started.
 */
import { createServer } from 'node:net'

/** Listens on port 0 of `host`, reads the port the OS chose, and releases it. */
export function pickFreePort(host = '127.0.0.1'): Promise<number> {
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
