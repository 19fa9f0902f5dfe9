/**
 * The edgeplane DynamoDB table, as plain data: the single source for `lib/store` (index and
 * attribute names), `lib/store/ensure-table.ts` (creating it on DynamoDB or dynalite) and
 * `infra/render-cloudformation.ts` (the committed `infra/cloudformation.json`). One table holds
 * everything under string keys `pk`/`sk`; one global secondary index `gsi1` (keys `g1pk`/`g1sk`,
 * projection ALL) serves cross-space object listing and the cross-space change feed; `expiresAt`
 * is the production TTL attribute, a backstop behind the change-log sweep (dynalite has no TTL).
 */

export type KeyAttributeType = 'S' | 'N' | 'B'

export type KeyElement = { attribute: string; keyType: 'HASH' | 'RANGE' }

export type GlobalIndexDefinition = {
  name: string
  keySchema: KeyElement[]
  projection: 'ALL' | 'KEYS_ONLY'
}

export type TableDefinition = {
  /** Default table name; deployments and tests may choose another. */
  defaultName: string
  keySchema: KeyElement[]
  /** Every attribute used in a key schema of the table or an index. */
  attributes: Record<string, KeyAttributeType>
  globalIndexes: GlobalIndexDefinition[]
  billingMode: 'PAY_PER_REQUEST'
  ttlAttribute: string
}

/** Name of the cross-space index and its key attributes. */
export const GSI_NAME = 'gsi1'
export const GSI_PK = 'g1pk'
export const GSI_SK = 'g1sk'
export const TTL_ATTRIBUTE = 'expiresAt'

export const TABLE: TableDefinition = {
  defaultName: 'edgeplane',
  keySchema: [
    { attribute: 'pk', keyType: 'HASH' },
    { attribute: 'sk', keyType: 'RANGE' },
  ],
  attributes: { pk: 'S', sk: 'S', [GSI_PK]: 'S', [GSI_SK]: 'S' },
  globalIndexes: [
    {
      name: GSI_NAME,
      keySchema: [
        { attribute: GSI_PK, keyType: 'HASH' },
        { attribute: GSI_SK, keyType: 'RANGE' },
      ],
      projection: 'ALL',
    },
  ],
  billingMode: 'PAY_PER_REQUEST',
  ttlAttribute: TTL_ATTRIBUTE,
}
