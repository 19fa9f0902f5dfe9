/**
 * The health-server flags the edge agent and the relay share: `--health-port N` (env
 * EDGEPLANE_HEALTH_PORT; default HEALTH_PORT, 9464; 0 takes a free port, `off` serves nothing)
 * and `--health-host ADDR` (env EDGEPLANE_HEALTH_HOST; default every interface). `readHealth`
 * turns the values given into the server's settings (none for `off`), or an error message.
 * `healthUsage` is their `--help` text.
 */
import { HEALTH_PORT } from '../lib/edge/manifests-image.ts'

export type HealthSettings = { port: number; host?: string }

export const HEALTH_FLAGS = ['--health-port', '--health-host'] as const

/** The flags' `--help` lines, descriptions starting at column `col`. */
export function healthUsage(col: number): string {
  const line = (flag: string, text: string) => `  ${flag.padEnd(col - 3)} ${text}`
  const more = (text: string) => `${' '.repeat(col)}${text}`
  return [
    line('--health-port N', 'port of /healthz, /readyz and /metrics (Prometheus text)'),
    more(`[EDGEPLANE_HEALTH_PORT] (default ${HEALTH_PORT}; 0: a free port; off: none)`),
    line('--health-host ADDR', 'address it binds [EDGEPLANE_HEALTH_HOST] (default: all)'),
    '',
  ].join('\n')
}

export function readHealth(
  port: string | undefined,
  host: string | undefined
): { health?: HealthSettings } | string {
  const text = port ?? String(HEALTH_PORT)
  if (text === 'off') return {}
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535)
    return `--health-port must be a port number (0-65535) or off, got ${text}`
  if (host !== undefined && !/^[\w.:-]+$/.test(host))
    return `--health-host must be a host name or an IP address, got ${host}`
  return { health: { port: Number(text), ...(host ? { host } : {}) } }
}
