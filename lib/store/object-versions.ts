/**
 * ObjectStore.versions: a collection's objects as their space, namespace, name and
 * resourceVersion, read with the list's own Query (object-reads.ts `baseQuery`) projected to those
 * attributes, so neither the store nor the reader moves or decodes a body. At ten thousand
 * destinations the SinglePlacementSlices a reconcile batch lists are megabytes of JSON; their
 * versions are a few hundred bytes, and tell whether what the last batch made of them still holds.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb'
import { type Item, readNumber, readString } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { namespaceFits } from './key-size.ts'
import { checkCollection } from './keys.ts'
import { baseQuery } from './object-reads.ts'
import type { CollectionRef, StoredVersion } from './types.ts'

/** The version an object head stands at; its sk is `<namespace>/<name>`. */
function versionOf(item: Item): StoredVersion {
  const namespace = readString(item, 'ns')
  return {
    cluster: readString(item, 'cl'),
    namespace,
    name: readString(item, 'sk').slice(namespace.length + 1),
    rv: readNumber(item, 'rv'),
  }
}

export async function listVersions(
  ctx: StoreContext,
  collection: CollectionRef
): Promise<StoredVersion[]> {
  checkCollection(collection)
  if (collection.namespace !== undefined && !namespaceFits(collection.namespace)) return []
  const query = {
    ...baseQuery(ctx, collection),
    ProjectionExpression: '#sk, #cl, #ns, #rv',
    ExpressionAttributeNames: { '#sk': 'sk', '#cl': 'cl', '#ns': 'ns', '#rv': 'rv' },
  }
  const out: StoredVersion[] = []
  let start: Item | undefined
  do {
    const page = await ctx.client.send(new QueryCommand({ ...query, ExclusiveStartKey: start }))
    for (const item of page.Items ?? []) out.push(versionOf(item))
    start = page.LastEvaluatedKey
  } while (start)
  return out
}
