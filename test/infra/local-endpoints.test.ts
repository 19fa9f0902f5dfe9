import { describe, expect, it } from 'vitest'
import { findLocalEndpoints, localSettings } from '../../infra/local-endpoints.ts'

describe('findLocalEndpoints', () => {
  it('finds URLs and host:port pairs on loopback and wildcard addresses', () => {
    expect(findLocalEndpoints('endpoint: "http://127.0.0.1:8000"')).toEqual([
      'http://127.0.0.1',
      '127.0.0.1:8000',
      'http://127.0.0.1:8000',
    ])
    expect(findLocalEndpoints('https://localhost/x')).toEqual(['https://localhost'])
    expect(findLocalEndpoints('listen on 0.0.0.0:4567')).toEqual(['0.0.0.0:4567'])
    expect(findLocalEndpoints('ws://[::1]:9229')).toEqual(['ws://[::1]', '[::1]:9229'])
    expect(findLocalEndpoints('http://127.1.2.3')).toEqual(['http://127.1.2.3'])
  })

  it("finds any URL on dynalite's or DynamoDB Local's default port", () => {
    expect(findLocalEndpoints('http://dev-box:8000')).toEqual(['http://dev-box:8000'])
    expect(findLocalEndpoints('http://dynalite.internal:4567/')).toEqual([
      'http://dynalite.internal:4567',
    ])
  })

  it('leaves real endpoints, CIDRs and run-time hosts alone', () => {
    const text = [
      'https://dynamodb.us-east-1.amazonaws.com',
      'clientCIDR: "0.0.0.0/0"',
      // hono's test helper builds its URL at run time: `http://localhost${path}`
      '`http://localhost$' + '{mergePath("/", path)}`',
      'http://127.0.0.10.example.com',
      'https://center.example:8787',
      'version 127.0.0.1.2',
    ].join('\n')
    expect(findLocalEndpoints(text)).toEqual([])
  })
})

describe('localSettings', () => {
  it('names each variable holding a local endpoint or host', () => {
    expect(
      localSettings({
        DDB_ENDPOINT: 'http://localhost:8000',
        DDB_REGION: 'us-east-1',
        OTHER: '127.0.0.1',
        EMPTY: '',
      })
    ).toEqual([
      'DDB_ENDPOINT=http://localhost:8000 (http://localhost, localhost:8000, http://localhost:8000)',
      'OTHER=127.0.0.1 (127.0.0.1)',
    ])
    expect(localSettings({ DDB_ENDPOINT: '', TABLE_NAME: 'edgeplane' })).toEqual([])
  })
})
