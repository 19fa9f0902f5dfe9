/**
 * The bench's dynalite as a program of its own (bench/dynalite-process.ts starts it): an in-memory
 * dynalite on 127.0.0.1, its endpoint printed as one JSON line on stdout once it listens. It stops
 * when its stdin closes (the bench ended, or died), so it never outlives the bench. Kept out of
 * the hub's process so that the hub's CPU figures are the hub's alone and its garbage collector
 * never walks the table dynalite holds (a million change-log items at 10,000 edges).
 */
import { startDynalite } from '../infra/local/dynalite-server.ts'

const db = await startDynalite({ host: '127.0.0.1' })
process.stdout.write(`${JSON.stringify({ endpoint: db.endpoint })}\n`)
process.stdin.resume()
process.stdin.once('end', () => {
  db.close().finally(() => process.exit(0))
})
