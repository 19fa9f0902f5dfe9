/**
 * The watch relay's process entry: parses flags (cli-args.ts), reads the admin token, opens the
 * DynamoDB table for watch cursors and runs the relay (relay.ts) until SIGTERM or SIGINT, then
 * drains pending keys, waits for cursor saves and exits 0 (also when `--parent-pid` is given and
 * that process is no longer its parent: `npm start` runs it so, and a relay it left behind after a
 * crash stops by itself). Once started it serves /healthz, /readyz and /metrics
 * (infra/serve-health.ts, the relay's own checks and counts, with edgeplane_build_info and the
 * process_* series of infra/process-readings.ts). Exits 2 on bad arguments and 1 when
 * it cannot start (e.g. the hub is unreachable, or the health port cannot be bound), so a
 * supervisor restarts it. `npm run build` bundles this file into dist/relay/main.mjs, which the
 * image runs.
 */

import { readFile } from 'node:fs/promises'
import { createLogger } from '../../lib/log.ts'
import { renderPrometheus } from '../../lib/metrics/prometheus-text.ts'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../lib/store/dynamo-store.ts'
import { livenessRule } from '../../lib/summarize/liveness.ts'
import { logLevelFrom, untilStopped } from '../process-life.ts'
import { processMetrics } from '../process-readings.ts'
import { serveHealth } from '../serve-health.ts'
import { parseRelayArgs, USAGE } from './cli-args.ts'
import { startRelay } from './relay.ts'

async function main(): Promise<number> {
  const req = parseRelayArgs(process.argv.slice(2), process.env)
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
  const log = createLogger({ level, bindings: { component: 'relay' } })
  const token = (await readFile(cfg.tokenFile, 'utf8')).trim()
  if (!token) {
    log.error('relay token file is empty', { tokenFile: cfg.tokenFile })
    return 1
  }
  const hasAwsCreds = !!(process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY)
  const client = createDynamoClient({
    region: cfg.region,
    ...(cfg.ddbEndpoint ? { endpoint: cfg.ddbEndpoint } : {}),
    ...(cfg.ddbEndpoint && !hasAwsCreds
      ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  })
  const store = createDynamoStore({ client, tableName: cfg.table })
  let relay: Awaited<ReturnType<typeof startRelay>>
  try {
    relay = await startRelay({
      hubUrl: cfg.hubUrl,
      token,
      kv: store.kv,
      log,
      delayMs: cfg.delayMs,
      hubTimeoutMs: cfg.hubTimeoutMs,
      liveness: livenessRule(cfg.staleAfterSeconds),
    })
  } catch (err) {
    log.error('relay could not start', { err })
    client.destroy()
    return 1
  }
  let server: Awaited<ReturnType<typeof serveHealth>> | undefined
  if (cfg.health) {
    const metrics = () => {
      relay.collectMetrics()
      return renderPrometheus(processMetrics(relay.registry.families.values()))
    }
    try {
      server = await serveHealth(cfg.health, { live: relay.live, ready: relay.ready, metrics }, log)
    } catch (err) {
      log.error('relay could not start', { err })
      await relay.stop()
      client.destroy()
      return 1
    }
  }
  await untilStopped({ ...(cfg.parentPid ? { parentPid: cfg.parentPid } : {}), log })
  log.info('relay stopping')
  await relay.stop()
  await server?.close()
  client.destroy()
  return 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`relay failed: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
)
