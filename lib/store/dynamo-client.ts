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
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { subrequest } from '../budget/subrequest.ts'
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
  })
  client.middlewareStack.add(
    (next, context) => (args) => subrequest(commandOp(context), () => next(args)),
    { step: 'finalizeRequest', priority: 'low', name: 'edgeplaneSubrequestBudget' }
  )
  const { counter, fault } = options
  if (counter || fault) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const op = commandOp(context)
        counter?.add(op)
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
