import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CLOUDFORMATION_PATH,
  renderCloudFormation,
  renderCloudFormationJson,
} from '../../infra/render-cloudformation.ts'
import { TABLE } from '../../infra/table.ts'

describe('infra/cloudformation.json', () => {
  it('is exactly what render-cloudformation produces from infra/table.ts', () => {
    const committed = readFileSync(CLOUDFORMATION_PATH, 'utf8')
    expect(JSON.parse(committed)).toEqual(renderCloudFormation())
    expect(committed).toBe(renderCloudFormationJson())
  })

  it('declares the table, its index, on-demand billing and TTL from the definition', () => {
    const template = renderCloudFormation() as {
      Resources: { Table: { Type: string; Properties: Record<string, unknown> } }
    }
    const { Type, Properties } = template.Resources.Table
    expect(Type).toBe('AWS::DynamoDB::Table')
    expect(Properties.BillingMode).toBe('PAY_PER_REQUEST')
    expect(Properties.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ])
    expect(Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'gsi1',
        KeySchema: [
          { AttributeName: 'g1pk', KeyType: 'HASH' },
          { AttributeName: 'g1sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ])
    expect(Properties.TimeToLiveSpecification).toEqual({
      AttributeName: TABLE.ttlAttribute,
      Enabled: true,
    })
  })

  it('follows changes to the definition', () => {
    const changed = { ...TABLE, ttlAttribute: 'other', defaultName: 'x-table' }
    const template = renderCloudFormation(changed) as {
      Parameters: { TableName: { Default: string } }
      Resources: { Table: { Properties: { TimeToLiveSpecification: unknown } } }
    }
    expect(template.Parameters.TableName.Default).toBe('x-table')
    expect(template.Resources.Table.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'other',
      Enabled: true,
    })
  })
})
