/**
 * Structured logging: one JSON object per line on stdout/stderr, with a timestamp, a level, a
 * message and whatever context the caller bound (step, key, space, request id). Child loggers
 * carry their bindings, the way kcp's WithReconciler/WithQueueKey do.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type LogFields = Record<string, unknown>

export type Logger = {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  child(fields: LogFields): Logger
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export type LoggerOptions = {
  level?: LogLevel
  bindings?: LogFields
  sink?: (line: string, level: LogLevel) => void
}

function defaultSink(line: string, level: LogLevel): void {
  if (level === 'error' || level === 'warn') console.error(line)
  else console.log(line)
}

function serializeError(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info']
  const bindings = options.bindings ?? {}
  const sink = options.sink ?? defaultSink
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return
    const record: LogFields = { time: new Date().toISOString(), level, msg, ...bindings }
    for (const [k, v] of Object.entries(fields ?? {})) record[k] = serializeError(v)
    sink(JSON.stringify(record), level)
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (f) => createLogger({ ...options, bindings: { ...bindings, ...f } }),
  }
}

/** A logger that drops everything; for tests that do not look at logs. */
export const silentLogger: Logger = createLogger({ sink: () => {} })
