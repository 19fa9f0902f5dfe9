/**
 * The data the benchmark writes: a filler string, a raw DynamoDB item and a ConfigMap, each sized
 * so its JSON is close to a requested number of bytes (about 1 KB by default), so raw and hub
 * writes move comparable payloads.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb'

/** A deterministic printable string of exactly `length` characters. */
export function filler(length: number, seed = 0): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[(i * 7 + seed) % alphabet.length]
  return out
}

/** A raw item of about `bytes` bytes under `pk`/`sk`. */
export function rawItem(pk: string, sk: string, bytes: number): Record<string, AttributeValue> {
  const overhead = pk.length + sk.length + 24
  return { pk: { S: pk }, sk: { S: sk }, data: { S: filler(Math.max(1, bytes - overhead)) } }
}

export type ConfigMap = {
  apiVersion: 'v1'
  kind: 'ConfigMap'
  metadata: { name: string; namespace: string; labels?: Record<string, string> }
  data: Record<string, string>
}

/** A ConfigMap whose request body (JSON) is about `bytes` bytes. */
export function configMap(namespace: string, name: string, bytes: number, seed = 0): ConfigMap {
  const base: ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench' } },
    data: { payload: '' },
  }
  const overhead = JSON.stringify(base).length
  base.data.payload = filler(Math.max(1, bytes - overhead), seed)
  return base
}
