/**
 * The simulated edge cluster's process entry: parses flags (cli-args.ts), reads (or creates) the
 * admin token file and the TLS certificate, starts the edge (start.ts) — with the store
 * credentials of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY when both are set (npm start's store
 * key), dummy ones otherwise — writes the ready line to
 * stdout (ready-line.ts; logs go to stderr) and runs until SIGTERM or SIGINT — or, with
 * `--parent-pid`, until that process is no longer its parent — then stops cleanly and exits 0.
 * Exits 2 on bad arguments and 1 when it cannot start.
 */

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createLogger } from '../../lib/log.ts'
import { loadOrCreateToken } from '../local/data-dir.ts'
import { logLevelFrom, untilStopped } from '../process-life.ts'
import { parseEdgeSimArgs, USAGE } from './cli-args.ts'
import { formatReadyLine } from './ready-line.ts'
import { type SimulatedEdge, startSimulatedEdge } from './start.ts'

async function main(): Promise<number> {
  const req = parseEdgeSimArgs(process.argv.slice(2), process.env)
  if (req.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (req.kind === 'error') {
    process.stderr.write(`${req.message}\n\n${USAGE}`)
    return 2
  }
  const cfg = req.config
  const level = logLevelFrom(process.env)
  const log = createLogger({
    level,
    bindings: { component: 'edge-sim' },
    sink: (line) => process.stderr.write(`${line}\n`),
  })
  let edge: SimulatedEdge
  try {
    const { token: adminToken } = await loadOrCreateToken(cfg.tokenFile)
    const tls = cfg.certDir
      ? {
          cert: await readFile(join(cfg.certDir, 'cert.pem'), 'utf8'),
          key: await readFile(join(cfg.certDir, 'key.pem'), 'utf8'),
        }
      : undefined
    if (!tls) log.warn('no --cert-dir: serving plain http, where kubectl sends no bearer token')
    edge = await startSimulatedEdge({
      name: cfg.name,
      ddbEndpoint: cfg.ddbEndpoint,
      ...(process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: process.env.AWS_ACCESS_KEY_ID,
              secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
            },
          }
        : {}),
      ...(cfg.table ? { tableName: cfg.table } : {}),
      region: cfg.region,
      faults: cfg.faults,
      tls,
      host: cfg.host,
      port: cfg.port,
      adminToken,
      log,
    })
  } catch (err) {
    log.error('simulated edge could not start', { error: err })
    return 1
  }
  process.stdout.write(
    formatReadyLine({ name: edge.name, url: edge.url, table: edge.tableName, pid: process.pid })
  )
  await untilStopped({ ...(cfg.parentPid ? { parentPid: cfg.parentPid } : {}), log })
  log.info('simulated edge stopping')
  await edge.close()
  return 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  }
)
