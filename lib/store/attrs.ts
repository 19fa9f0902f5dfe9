/**
 * Small helpers for raw DynamoDB attribute maps: build string/number/binary values, read them back
 * with narrowing (a malformed stored item is an internal error, never a client error), and
 * recognise a failed condition. The store works on raw `AttributeValue`s so nothing else needs a
 * marshalling library.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'

export type Item = Record<string, AttributeValue>

export const s = (value: string): AttributeValue => ({ S: value })
export const n = (value: number): AttributeValue => ({ N: String(value) })
export const b = (value: Uint8Array): AttributeValue => ({ B: value })

/** The string attribute `name`, or undefined when absent. */
export function optString(item: Item, name: string): string | undefined {
  const value = item[name]
  if (value === undefined) return undefined
  if (value.S === undefined) throw internalError(`stored item attribute ${name} is not a string`)
  return value.S
}

/** The number attribute `name`, or undefined when absent. */
export function optNumber(item: Item, name: string): number | undefined {
  const value = item[name]
  if (value === undefined) return undefined
  const parsed = value.N === undefined ? Number.NaN : Number(value.N)
  if (!Number.isFinite(parsed)) throw internalError(`stored item attribute ${name} is not a number`)
  return parsed
}

/** The binary attribute `name`, or undefined when absent. */
export function optBytes(item: Item, name: string): Uint8Array | undefined {
  const value = item[name]
  if (value === undefined) return undefined
  if (value.B === undefined) throw internalError(`stored item attribute ${name} is not binary`)
  return value.B
}

export function readString(item: Item, name: string): string {
  const value = optString(item, name)
  if (value === undefined) throw internalError(`stored item lacks attribute ${name}`)
  return value
}

export function readNumber(item: Item, name: string): number {
  const value = optNumber(item, name)
  if (value === undefined) throw internalError(`stored item lacks attribute ${name}`)
  return value
}

/** True for the error DynamoDB returns when a ConditionExpression did not hold. */
export function isConditionalFailure(e: unknown): boolean {
  return e instanceof Error && e.name === 'ConditionalCheckFailedException'
}
