import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  RELAY_TABLE_ACTIONS,
  WORKER_INDEX_ACTIONS,
  WORKER_TABLE_ACTIONS,
} from '../../infra/access-policy.ts'
import {
  CLOUDFORMATION_PATH,
  renderCloudFormation,
  renderCloudFormationJson,
} from '../../infra/render-cloudformation.ts'
import { TABLE } from '../../lib/store/table.ts'

describe('infra/cloudformation.json', () => {
  it('is exactly what render-cloudformation produces from lib/store/table.ts', () => {
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

  it('keeps the table and its data: Retain on delete and replace, PITR, deletion protection', () => {
    const template = renderCloudFormation() as {
      Resources: { Table: Record<string, unknown> & { Properties: Record<string, unknown> } }
    }
    const table = template.Resources.Table
    expect(table.DeletionPolicy).toBe('Retain')
    expect(table.UpdateReplacePolicy).toBe('Retain')
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
    })
    expect(table.Properties.DeletionProtectionEnabled).toBe(true)
  })

  it('grants the Worker its actions on the table and index, the relay its cursors only', () => {
    type Statement = { Action: string[]; Resource: unknown[]; Condition?: unknown }
    type Policy = { Type: string; Properties: { PolicyDocument: { Statement: Statement[] } } }
    const { Resources } = renderCloudFormation() as { Resources: Record<string, Policy> }
    const worker = Resources.WorkerPolicy
    const relay = Resources.RelayPolicy
    expect(worker?.Type).toBe('AWS::IAM::ManagedPolicy')
    const [items, index] = worker?.Properties.PolicyDocument.Statement ?? []
    expect(items?.Action).toEqual(WORKER_TABLE_ACTIONS.map((a) => `dynamodb:${a}`))
    expect(items?.Resource).toEqual([{ 'Fn::GetAtt': ['Table', 'Arn'] }])
    expect(index?.Action).toEqual(WORKER_INDEX_ACTIONS.map((a) => `dynamodb:${a}`))
    expect(index?.Resource).toEqual([{ 'Fn::Sub': `\${Table.Arn}/index/gsi1` }])
    const [cursors] = relay?.Properties.PolicyDocument.Statement ?? []
    expect(cursors?.Action).toEqual(RELAY_TABLE_ACTIONS.map((a) => `dynamodb:${a}`))
    expect(cursors?.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['kv#relay-cursors'] },
    })
    // No wildcard action or resource anywhere.
    expect(JSON.stringify([worker, relay])).not.toMatch(/"\*"|dynamodb:\*|:\*"/)
    expect(Resources.WorkerUser).toMatchObject({
      Type: 'AWS::IAM::User',
      Condition: 'CreateUsers',
      Properties: { ManagedPolicyArns: [{ Ref: 'WorkerPolicy' }] },
    })
    expect(Resources.RelayUser).toMatchObject({
      Properties: { ManagedPolicyArns: [{ Ref: 'RelayPolicy' }] },
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
    const withIndexes = {
      ...TABLE,
      globalIndexes: [...TABLE.globalIndexes, { ...TABLE.globalIndexes[0], name: 'gsi2' }],
    } as typeof TABLE
    expect(JSON.stringify(renderCloudFormation(withIndexes))).toContain(
      `"Resource":[{"Fn::Sub":"\${Table.Arn}/index/gsi1"},{"Fn::Sub":"\${Table.Arn}/index/gsi2"}]`
    )
  })
})
