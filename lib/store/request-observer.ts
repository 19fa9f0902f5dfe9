/**
 * Reports every DynamoDB request attempt of a client with its result, for the hub's
 * `edgeplane_store_requests_total` (docs/ARCHITECTURE.md, "Metrics"). The client's attempt
 * middleware (dynamo-client.ts) sits inside the SDK's retry loop, so a throttled attempt the SDK
 * repeats is seen as `throttled` and its repetition again: the count is what DynamoDB was asked,
 * which is what it bills and throttles.
 * Results: `ok`, `conditional` (a ConditionExpression did not hold: a lost race, not a fault),
 * `throttled` (ProvisionedThroughputExceeded, ThrottlingException, RequestLimitExceeded) and
 * `error` (anything else, the network included).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { onAttempt } from './dynamo-client.ts'

export type StoreRequestResult = 'ok' | 'conditional' | 'throttled' | 'error'
export type StoreRequestObserver = (command: string, result: StoreRequestResult) => void

const THROTTLED = /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/

export function classifyStoreError(e: unknown): StoreRequestResult {
  const name = e instanceof Error ? e.name : ''
  if (name === 'ConditionalCheckFailedException') return 'conditional'
  if (THROTTLED.test(name)) return 'throttled'
  return 'error'
}

/** Reports every later request attempt of `client` to `observe`. */
export function observeStoreRequests(client: DynamoDBClient, observe: StoreRequestObserver): void {
  onAttempt(client, (command, error) =>
    observe(command, error === undefined ? 'ok' : classifyStoreError(error))
  )
}
