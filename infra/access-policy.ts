/**
 * Who may do what on the edgeplane table in AWS, as data for infra/render-cloudformation.ts:
 *   - the Worker: every DynamoDB action its store code sends (item reads and writes, batches, the
 *     sweeps' scans) on the table, and queries on its index (cross-space lists, the change feed);
 *     no table management (the table comes from CloudFormation, not from the Worker);
 *   - the watch relay: reading and writing its watch cursors, items of one partition
 *     (`kv#relay-cursors`, enforced with the dynamodb:LeadingKeys condition).
 * Tests derive both lists from the code — the `*Command`s reachable from functions/index.ts, and
 * the requests the relay's cursor store makes against dynalite — so a new command fails them
 * until the policy grows.
 */
import { CURSOR_NS } from '../lib/relay/cursor.ts'
import { kvPk } from '../lib/store/keys.ts'

/** DynamoDB actions (without the `dynamodb:` prefix) the Worker needs on the table. */
export const WORKER_TABLE_ACTIONS = [
  'BatchGetItem',
  'BatchWriteItem',
  'DeleteItem',
  'GetItem',
  'PutItem',
  'Query',
  'Scan',
  'UpdateItem',
] as const

/** DynamoDB actions the Worker needs on the table's global secondary indexes. */
export const WORKER_INDEX_ACTIONS = ['Query'] as const

/** DynamoDB actions the relay needs on its cursor items. */
export const RELAY_TABLE_ACTIONS = ['GetItem', 'UpdateItem'] as const

/** The partition keys the relay may touch: its cursors' key-value namespace. */
export const RELAY_LEADING_KEYS = [kvPk(CURSOR_NS)]
