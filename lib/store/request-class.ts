/**
 * What a DynamoDB request touches, as a short class for the request counters of the benchmarks
 * (request-counter.ts): the kind of partition its first key names (keys.ts has the layout) —
 * `kv:<namespace's first segment>` for key-value entries (`kv:tokens`, `kv:edge-leases`), `o:<resource>`
 * and `l:<resource>` for objects and their change log (either the table's or the index's key),
 * `mf` for manifests, `pb` for projected bodies, `blob` for body chunks, `meta` for the counters;
 * `?` when no key can be found. Never part of any decision: a way to say where reads go.
 */
type Attr = { S?: string } | undefined
type Keyed = { pk?: Attr; g1pk?: Attr }

function firstPk(input: Record<string, unknown>): string | undefined {
  const key = (input.Key ?? input.Item) as Keyed | undefined
  if (key?.pk?.S) return key.pk.S
  const values = input.ExpressionAttributeValues as Record<string, Attr> | undefined
  if (values?.[':pk']?.S) return values[':pk'].S
  const items = input.RequestItems as Record<string, unknown> | undefined
  const table = items && Object.values(items)[0]
  if (table) {
    const keys = (table as { Keys?: Keyed[] }).Keys
    if (keys?.[0]?.pk?.S) return keys[0].pk.S
    const req = (table as Record<string, { Item?: Keyed; Key?: Keyed }>[])[0]
    const one = req && (req.PutRequest ?? req.DeleteRequest)
    const pk = one?.Item?.pk?.S ?? one?.Key?.pk?.S
    if (pk) return pk
  }
  const transact = (
    input.TransactItems as Record<string, Record<string, unknown>>[] | undefined
  )?.[0]
  const inner = transact && Object.values(transact)[0]
  return inner ? firstPk(inner) : undefined
}

/** The class of partition `pk` (a table or index partition key). */
export function partitionClass(pk: string): string {
  const [kind = '', ...rest] = pk.split('#')
  if (kind === 'kv') return `kv:${(rest[0] ?? '').split('/')[0]}`
  if (kind === 'o' || kind === 'l') return `${kind}:${(rest.at(-1) ?? '').split('/').at(-1)}`
  return kind || '?'
}

/** The class of a request's input (a DynamoDB command's input object). */
export function requestClass(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '?'
  const pk = firstPk(input as Record<string, unknown>)
  return pk ? partitionClass(pk) : '?'
}
