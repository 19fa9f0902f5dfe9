import { describe, expect, it } from 'vitest'
import { readLocalConfig } from '../../../infra/local/local-config.ts'

describe('readLocalConfig', () => {
  it('uses the defaults: port 8787, .edgeplane under the working directory', () => {
    expect(readLocalConfig({}, '/repo')).toEqual({
      port: 8787,
      dataDir: '/repo/.edgeplane',
      tableName: 'edgeplane',
      logLevel: 'info',
      relay: true,
      edges: [
        { name: 'florin', labels: { env: 'prod' } },
        { name: 'guilder', labels: { env: 'prod', extended: 'si' } },
      ],
      pollIntervalSeconds: 2,
      agentTimeoutSeconds: 30,
      hubRestarts: 3,
      cronPeriodSeconds: 60,
      programs: 'bundles',
    })
  })

  it('honours EDGEPLANE_PORT, EDGEPLANE_DATA (relative or absolute), TABLE_NAME, LOG_LEVEL, EDGEPLANE_RELAY, EDGEPLANE_CRON_PERIOD, EDGEPLANE_AGENT_TIMEOUT, EDGEPLANE_PROGRAMS', () => {
    const env = {
      EDGEPLANE_PORT: '9000',
      EDGEPLANE_DATA: 'tmp/stack2',
      TABLE_NAME: 'other',
      LOG_LEVEL: 'debug',
      EDGEPLANE_RELAY: 'off',
      EDGEPLANE_EDGES: 'zloty:env=dev',
      EDGEPLANE_POLL_INTERVAL: '5',
      EDGEPLANE_HUB_RESTARTS: '0',
      EDGEPLANE_CRON_PERIOD: '5',
      EDGEPLANE_AGENT_TIMEOUT: '5',
      EDGEPLANE_PROGRAMS: 'source',
    }
    expect(readLocalConfig(env, '/repo')).toEqual({
      port: 9000,
      dataDir: '/repo/tmp/stack2',
      tableName: 'other',
      logLevel: 'debug',
      relay: false,
      edges: [{ name: 'zloty', labels: { env: 'dev' } }],
      pollIntervalSeconds: 5,
      agentTimeoutSeconds: 5,
      hubRestarts: 0,
      cronPeriodSeconds: 5,
      programs: 'source',
    })
    expect(readLocalConfig({ EDGEPLANE_DATA: '/var/ep' }, '/repo').dataDir).toBe('/var/ep')
  })

  it('honours EDGEPLANE_STALE_AFTER, leaving the default to the Worker when unset', () => {
    expect(readLocalConfig({ EDGEPLANE_STALE_AFTER: '30' }, '/r').staleAfterSeconds).toBe(30)
    expect(readLocalConfig({}, '/r')).not.toHaveProperty('staleAfterSeconds')
  })

  it('reads an empty EDGEPLANE_EDGES as no edges, unlike the other variables', () => {
    expect(readLocalConfig({ EDGEPLANE_EDGES: '' }, '/r').edges).toEqual([])
  })

  it('treats empty variables as unset', () => {
    expect(readLocalConfig({ EDGEPLANE_PORT: '', EDGEPLANE_DATA: '' }, '/r')).toMatchObject({
      port: 8787,
      dataDir: '/r/.edgeplane',
    })
  })

  it.each([
    ['EDGEPLANE_PORT', 'abc'],
    ['EDGEPLANE_PORT', '70000'],
    ['EDGEPLANE_PORT', '0'],
    ['LOG_LEVEL', 'loud'],
    ['TABLE_NAME', 'x'],
    ['EDGEPLANE_RELAY', 'maybe'],
    ['EDGEPLANE_EDGES', 'Florin'],
    ['EDGEPLANE_POLL_INTERVAL', '0'],
    ['EDGEPLANE_POLL_INTERVAL', '1.5'],
    ['EDGEPLANE_HUB_RESTARTS', '-1'],
    ['EDGEPLANE_CRON_PERIOD', '0'],
    ['EDGEPLANE_CRON_PERIOD', '2.5'],
    ['EDGEPLANE_AGENT_TIMEOUT', '0'],
    ['EDGEPLANE_AGENT_TIMEOUT', '121'],
    ['EDGEPLANE_AGENT_TIMEOUT', '2.5'],
    ['EDGEPLANE_PROGRAMS', 'bundled'],
    ['EDGEPLANE_STALE_AFTER', '2'],
    ['EDGEPLANE_STALE_AFTER', '86401'],
    ['EDGEPLANE_STALE_AFTER', '7.5'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => readLocalConfig({ [name]: value }, '/r')).toThrow(name)
  })
})
