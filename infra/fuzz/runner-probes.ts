/**
 * The runner's probes (runner.ts): reading back the object a request named to confirm its
 * identity, checking that the hub still answers (/readyz, a list, a probe create + delete), and
 * the hub's error log record behind a 5xx, shortened for the violation listing.
 */
import { cmCollection, cmPath, configMap } from './fixture.ts'
import { adminJson } from './hub-api.ts'
import { send, type Target } from './send.ts'
import type { Fixture, FuzzRequest } from './types.ts'

export async function identityViolation(t: Target, r: FuzzRequest): Promise<string | undefined> {
  const id = r.identity
  if (!id) return undefined
  const got = await adminJson(t, 'GET', id.path)
  if (got.status !== 200) return `after the ${r.method}, GET ${id.path} answered ${got.status}`
  const o = got.json as {
    kind?: string
    apiVersion?: string
    metadata?: { name?: string; namespace?: string; deletionTimestamp?: string }
  }
  const wrong: string[] = []
  if (o.kind !== id.kind) wrong.push(`kind ${o.kind}`)
  if (o.apiVersion !== id.apiVersion) wrong.push(`apiVersion ${o.apiVersion}`)
  if (o.metadata?.name !== id.name) wrong.push(`name ${o.metadata?.name}`)
  if ((o.metadata?.namespace ?? undefined) !== id.namespace)
    wrong.push(`namespace ${o.metadata?.namespace}`)
  if (o.metadata?.deletionTimestamp && r.method !== 'DELETE')
    wrong.push(`deletionTimestamp ${o.metadata.deletionTimestamp}`)
  return wrong.length ? `${id.path} now reads back with ${wrong.join(', ')}` : undefined
}

/** The hub still answers: /readyz, a list, a probe create + delete. Returns what failed. */
export async function healthProblems(t: Target, fx: Fixture, n: number): Promise<string[]> {
  const problems: string[] = []
  const ready = await send(t, {
    category: 'health',
    label: 'readyz',
    method: 'GET',
    path: '/readyz',
    token: 'none',
    write: false,
  })
  if (ready.status !== 200) problems.push(`/readyz answered ${ready.status} ${ready.error ?? ''}`)
  const list = await adminJson(t, 'GET', cmCollection(fx, 'root'))
  if (list.status !== 200 || (list.json as { kind?: string })?.kind !== 'ConfigMapList')
    problems.push(
      `listing ConfigMaps answered ${list.status} ${list.error ?? list.text.slice(0, 100)}`
    )
  const name = `victim-probe-${n}`
  const made = await adminJson(t, 'POST', cmCollection(fx, 'root'), configMap(name))
  if (made.status !== 201)
    problems.push(
      `creating probe ${name} answered ${made.status} ${made.error ?? made.text.slice(0, 100)}`
    )
  else {
    const gone = await adminJson(t, 'DELETE', cmPath(fx, 'root', name))
    if (gone.status !== 200 && gone.status !== 202)
      problems.push(`deleting probe ${name} answered ${gone.status}`)
  }
  return problems
}

/** The first error record's message and the top of its stack, for a 5xx's violation. */
export function serverLog(logs: string[]): string {
  const first = logs[0]
  if (!first) return ''
  try {
    const rec = JSON.parse(first) as {
      msg?: string
      where?: string
      error?: unknown
      stack?: string
    }
    const err =
      typeof rec.error === 'object' && rec.error
        ? (rec.error as { message?: string }).message
        : String(rec.error ?? '')
    const stack = (rec.stack ?? '')
      .split('\n')
      .slice(1, 5)
      .map((l) => l.trim())
      .join(' < ')
    return `\n    server log: ${rec.msg ?? ''} ${rec.where ?? ''}: ${err}${stack ? ` at ${stack}` : ''}`
  } catch {
    return `\n    server log: ${first.slice(0, 300)}`
  }
}
