/**
 * Builds the DynamoDB client: the region, an optional endpoint (dynalite locally) and credentials,
 * plus one middleware that reports each command to an optional RequestCounter (operation name
 * without the `Command` suffix, e.g. `PutItem`) and to an optional fault hook. The hook sees every
 * command before it is sent and after it succeeded, may throw to simulate a failure and may return
 * a promise to hold the command back; tests use it to check that writes are safe to retry and that
 * watchers see concurrent writes in order. It runs outside the SDK's own retries.
 * A second middleware, inside the retries, sends every request attempt through the invocation's
 * budget gate (lib/budget/subrequest.ts): each attempt is one subrequest of the invocation whose
 * context sent it, and at most the connection limit are in flight per invocation.
 * Per request the SDK's own work is most of a Worker's CPU, so the client is given the runtime's
 * native codecs (sdk-codecs.ts), drops the SDK's logging step, and resolves its middleware stack
 * once per command (`cacheMiddleware`). Middleware added to the stack after the first request would
 * go unseen, so a request observer is not middleware: it is registered on the client (`onAttempt`),
 * and the client's own attempt middleware calls whatever is registered.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { subrequest } from '../budget/subrequest.ts'
import { collectBody, decodeBase64, encodeBase64 } from './sdk-codecs.ts'
import type { RequestCounter } from './types.ts'

export type FaultCall = {
  /** e.g. `PutItem`. */
  op: string
  input: unknown
  /** `before`: not sent yet; `after`: sent and succeeded (throwing now loses the response). */
  phase: 'before' | 'after'
}

export type DynamoClientOptions = {
  region: string
  endpoint?: string
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  counter?: RequestCounter
  fault?: (call: FaultCall) => void | Promise<void>
  /** SDK attempts per command (default: the SDK's, 3). */
  maxAttempts?: number
}

const opNames = new Map<string, string>()

/** Told of every request attempt: its operation and, when it failed, the error. */
export type AttemptListener = (op: string, error?: unknown) => void

const listeners = new WeakMap<DynamoDBClient, AttemptListener[]>()

/** Registers `listener` for every later attempt of `client` (request-observer.ts). */
export function onAttempt(client: DynamoDBClient, listener: AttemptListener): void {
  const list = listeners.get(client)
  if (list) list.push(listener)
  else listeners.set(client, [listener])
}

async function attempt<T>(client: DynamoDBClient, op: string, send: () => Promise<T>): Promise<T> {
  const list = listeners.get(client)
  if (!list) return send()
  try {
    const out = await send()
    for (const l of list) l(op)
    return out
  } catch (e) {
    for (const l of list) l(op, e)
    throw e
  }
}

/**
 * The operation a middleware context names, without the `Command` suffix (`PutItem`); remembered
 * per command name, since every request attempt passes through several middlewares that ask.
 */
export function commandOp(context: { commandName?: string }): string {
  const name = context.commandName ?? 'Unknown'
  let op = opNames.get(name)
  if (op === undefined) {
    op = name.endsWith('Command') ? name.slice(0, -'Command'.length) : name
    opNames.set(name, op)
  }
  return op
}

export function createDynamoClient(options: DynamoClientOptions): DynamoDBClient {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    base64Decoder: decodeBase64,
    base64Encoder: encodeBase64,
    streamCollector: collectBody,
    cacheMiddleware: true,
  })
  // Nothing here logs through the SDK; its logging step still filters every command's input and
  // output for a logger that would drop them.
  client.middlewareStack.remove('loggerMiddleware')
  client.middlewareStack.add(
    (next, context) => (args) => {
      const op = commandOp(context)
      return subrequest(op, () => attempt(client, op, () => next(args)))
    },
    { step: 'finalizeRequest', priority: 'low', name: 'edgeplaneSubrequestBudget' }
  )
  const { counter, fault } = options
  if (counter || fault) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const op = commandOp(context)
        counter?.add(op, args.input)
        await fault?.({ op, input: args.input, phase: 'before' })
        const result = await next(args)
        await fault?.({ op, input: args.input, phase: 'after' })
        return result
      },
      { step: 'initialize', name: 'edgeplaneRequestHooks' }
    )
  }
  return client
}
