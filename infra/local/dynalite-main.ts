/**
 * `npm start`'s dynalite as a program of its own (dynalite-process.ts starts and supervises it):
 * the local store with its LevelDB files in `EDGEPLANE_DYNALITE_PATH`, on 127.0.0.1 at
 * `EDGEPLANE_DYNALITE_PORT` (0: a free one), serving only requests signed with the store key of
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (dynalite-server.ts). Once it listens it prints one
 * JSON line on stdout, `{"port":…}`. dynalite throws, uncaught, on errors it does not answer: a
 * LevelDB I/O error (a full disk) puts the store in its full state (store-full.ts: writes refused
 * with a 500, reads served, `{"full":{"cause":…}}` on stderr, and an exit with 75 once there is
 * room again); any other is printed as one JSON line on stderr, `{"fatal":{"code":…,"message":…}}`,
 * and the program exits 70. Either way its supervisor starts a fresh one, which reopens the
 * database. It stops on SIGTERM or when its
 * stdin closes (`npm start` ended or died), closing the database, so it never outlives the stack.
 */
import { startDynalite } from './dynalite-server.ts'
import { fullStore } from './store-full.ts'

/** The exit code of a dynalite that failed (EX_SOFTWARE). */
const FAILED = 70

function fatal(e: unknown): never {
  const err = e as { code?: unknown; message?: unknown } | undefined
  const line = {
    fatal: {
      code: typeof err?.code === 'string' ? err.code : '',
      message: e instanceof Error ? e.message : String(e),
    },
  }
  process.stderr.write(`${JSON.stringify(line)}\n`)
  process.exit(FAILED)
}

const path = process.env.EDGEPLANE_DYNALITE_PATH
const full = path
  ? fullStore(path, (cause) => process.stderr.write(`${JSON.stringify({ full: { cause } })}\n`))
  : undefined
// A full disk is a state the store serves reads in (store-full.ts); anything else ends it.
const uncaught = (e: unknown) => {
  if (!full?.fail(e)) fatal(e)
}
process.on('uncaughtException', uncaught)
process.on('unhandledRejection', uncaught)

const accessKeyId = process.env.AWS_ACCESS_KEY_ID
const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY
const db = await startDynalite({
  ...(path ? { path } : {}),
  port: Number(process.env.EDGEPLANE_DYNALITE_PORT ?? 0),
  ...(accessKeyId && secretAccessKey ? { key: { accessKeyId, secretAccessKey } } : {}),
  ...(full ? { admit: full.admit } : {}),
}).catch(fatal)
process.stdout.write(`${JSON.stringify({ port: db.port })}\n`)

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  db.close().then(
    () => process.exit(0),
    (e: unknown) => fatal(e)
  )
}
process.once('SIGTERM', stop)
process.stdin.resume()
process.stdin.once('end', stop)
process.stdin.once('error', stop)
