/**
 * The fuzzer's own well-formed calls (seeding, snapshots, health probes), sent with the admin
 * token through the same sender as the fuzzed requests, with the body parsed as JSON when it is.
 */
import { send, type Target } from './send.ts'

export type JsonAnswer = { status: number; text: string; json: unknown; error?: string }

export async function adminJson(
  t: Target,
  method: string,
  path: string,
  body?: unknown
): Promise<JsonAnswer> {
  const a = await send(
    t,
    {
      category: 'fixture',
      label: 'fixture',
      method,
      path,
      token: 'admin',
      write: method !== 'GET',
      ...(body !== undefined
        ? { body: JSON.stringify(body), contentType: 'application/json' }
        : {}),
    },
    Number.POSITIVE_INFINITY
  )
  let json: unknown
  try {
    json = JSON.parse(a.body)
  } catch {
    json = undefined
  }
  return { status: a.status, text: a.body, json, ...(a.error ? { error: a.error } : {}) }
}

/** A request `must` sends, and the statuses (`ok`) it accepts. */
export type MustRequest = { method: string; path: string; body?: unknown; ok: number[] }

/** Like adminJson, but throws unless the status is one of `r.ok`. */
export async function must(t: Target, r: MustRequest): Promise<JsonAnswer> {
  const { method, path, body, ok } = r
  const res = await adminJson(t, method, path, body)
  if (!ok.includes(res.status))
    throw new Error(
      `${method} ${path} answered ${res.status}${res.error ? ` (${res.error})` : ''}: ${res.text.slice(0, 300)}`
    )
  return res
}
