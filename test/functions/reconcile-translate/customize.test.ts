/**
 * Customization in the translate step through the in-process hub: three destinations (florin and
 * guilder in prod, zloty in dev), a ConfigMap and a Deployment customized differently per
 * destination (a Customizer with expanded replacements, parameter expansion of the object, label
 * before annotation), copies whose result is identical sharing one body, a missing Customizer and
 * an undefined parameter sending the object uncustomized with an Event and the placement's
 * condition, and a Location relabel or a Customizer edit re-customizing the copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CM,
  CUSTOMIZERS,
  configMap,
  converge,
  copyOf,
  createFixture,
  customizer,
  customizerAnnotation,
  DEPLOY,
  deployment,
  eventsOf,
  expandAnnotation,
  type Fixture,
  hashOf,
  IMW,
  LOCATIONS,
  location,
  translated,
  WS,
} from './customize-fixtures.ts'

let f: Fixture

beforeAll(async () => {
  f = await createFixture(
    [
      location(
        'florin',
        { env: 'prod', city: 'bucharest', rack: 'r1' },
        { tier: 'gold', city: 'x' }
      ),
      location('guilder', { env: 'prod', city: 'amsterdam' }, { tier: 'silver' }),
      location('zloty', { env: 'dev', city: 'warsaw' }, { tier: 'bronze' }),
    ],
    {
      locationSelectors: [{ matchLabels: { env: 'prod' } }, { matchLabels: { env: 'dev' } }],
      namespaceSelector: { matchLabels: { app: 'custom' } },
    }
  )
  await f.client.create(
    WS,
    CUSTOMIZERS,
    customizer('cz-cm', [
      { path: '$.data.where', value: '"Running in %(loc)."' },
      { path: "$.metadata.labels['city']", value: '"%(city)"' },
    ])
  )
  await f.client.create(
    WS,
    CUSTOMIZERS,
    customizer('cz-deploy', [
      { path: '$.spec.template.spec.containers.0.image', value: '"nginx:%(tier)"' },
      { path: '$.spec.replicas', value: '3' },
    ])
  )
  await f.client.create(
    WS,
    CM,
    configMap('greeting', { where: 'center' }, customizerAnnotation('cz-cm'))
  )
  await f.client.create(
    WS,
    DEPLOY,
    deployment('web', { ...expandAnnotation, ...customizerAnnotation('app/cz-deploy') })
  )
  await f.client.create(WS, CM, configMap('env', { env: '%(env)', pct: '100%%' }, expandAnnotation))
  await f.client.create(WS, CM, configMap('plain', { a: '1' }))
  await converge(f)
}, 60_000)

afterAll(async () => {
  await f?.hub.close()
})

const cmData = async (target: string, name: string) =>
  (await copyOf(f, target, 'configmaps', name))?.data
const container = async (target: string) =>
  ((await copyOf(f, target, 'deployments', 'web'))!.spec as any).template.spec.containers[0]

describe('customization per destination', () => {
  it.each([
    ['florin', 'Running in florin.', 'bucharest'],
    ['guilder', 'Running in guilder.', 'amsterdam'],
    ['zloty', 'Running in zloty.', 'warsaw'],
  ])('customizes the ConfigMap for %s (label before annotation)', async (target, where, city) => {
    const copy = await copyOf(f, target, 'configmaps', 'greeting')
    expect(copy?.data).toEqual({ where })
    expect(copy?.metadata.labels?.city).toBe(city)
    expect(copy?.metadata.labels?.['edge.kcp.io/projected']).toBe('yes')
  })

  it.each([
    ['florin', 'nginx:gold', 'in prod env'],
    ['guilder', 'nginx:silver', 'in prod env'],
    ['zloty', 'nginx:bronze', 'in dev env'],
  ])(
    'customizes the Deployment for %s (object expanded, then replaced)',
    async (target, image, env) => {
      const c = await container(target)
      expect(c.image).toBe(image)
      expect(c.env).toEqual([{ name: 'WHERE', value: env }])
      expect((await copyOf(f, target, 'deployments', 'web'))?.spec).toMatchObject({ replicas: 3 })
    }
  )

  it('shares one body between destinations whose result is identical', async () => {
    expect(await cmData('florin', 'env')).toEqual({ env: 'prod', pct: '100%' })
    expect(await cmData('zloty', 'env')).toEqual({ env: 'dev', pct: '100%' })
    const env = await Promise.all(
      ['florin', 'guilder', 'zloty'].map((t) => hashOf(f, t, 'configmaps', 'env'))
    )
    expect(env[0]).toBe(env[1])
    expect(env[2]).not.toBe(env[0])
    const plain = await Promise.all(
      ['florin', 'guilder', 'zloty'].map((t) => hashOf(f, t, 'configmaps', 'plain'))
    )
    expect(new Set(plain).size).toBe(1)
    const greeting = await Promise.all(
      ['florin', 'guilder', 'zloty'].map((t) => hashOf(f, t, 'configmaps', 'greeting'))
    )
    expect(new Set(greeting).size).toBe(3)
  })

  it('reports nothing while every customization succeeds, and a second pass writes nothing', async () => {
    expect(await translated(f)).toMatchObject({ status: 'True', reason: 'Projected' })
    const outcomes = await converge(f)
    expect(outcomes.every((o) => o.endsWith('unchanged'))).toBe(true)
  })

  it('sends an object naming a missing Customizer uncustomized, with an Event and the condition', async () => {
    await f.client.create(
      WS,
      CM,
      configMap('orphan', { a: '%(env)' }, customizerAnnotation('nope'))
    )
    await converge(f)
    for (const target of ['florin', 'guilder', 'zloty'])
      expect(await cmData(target, 'orphan')).toEqual({ a: '%(env)' })
    const [event, ...more] = await eventsOf(f, ['CustomizerNotFound'])
    expect(more).toEqual([])
    expect(event?.type).toBe('Warning')
    expect(event?.involvedObject).toMatchObject({
      kind: 'ConfigMap',
      namespace: 'app',
      name: 'orphan',
    })
    expect(event?.message).toContain('Customizer "app/nope" not found')
    expect(event?.message).toContain('sent uncustomized to 3 destinations')
    expect(event?.message).toContain('florin (Location')
    const cond = await translated(f)
    expect(cond).toMatchObject({ status: 'False', reason: 'CustomizationFailed' })
    expect(cond?.message).toContain('ConfigMap app/orphan: Customizer "app/nope" not found')
  })

  it('sends an object with an undefined parameter uncustomized there only, and says which', async () => {
    await f.client.create(WS, CM, configMap('racked', { rack: '%(rack)' }, expandAnnotation))
    await converge(f)
    expect(await cmData('florin', 'racked')).toEqual({ rack: 'r1' })
    expect(await cmData('guilder', 'racked')).toEqual({ rack: '%(rack)' })
    const [event] = await eventsOf(f, ['UndefinedParameter'])
    expect(event?.involvedObject).toMatchObject({ name: 'racked' })
    expect(event?.message).toContain('parameter "rack" undefined')
    expect(event?.message).toContain('2 destinations: guilder (Location')
    expect(event?.message).not.toContain('florin')
  })

  it('re-customizes when the missing pieces appear; the Event follows, the condition turns True', async () => {
    await f.client.create(
      WS,
      CUSTOMIZERS,
      customizer('nope', [{ path: '$.data.b', value: '"%(tier)"' }], false)
    )
    for (const name of ['guilder', 'zloty']) {
      const loc = (await f.client.get(IMW, LOCATIONS, name))!
      await f.client.update(IMW, LOCATIONS, {
        ...loc,
        metadata: {
          ...loc.metadata,
          annotations: { ...loc.metadata.annotations, rack: `r-${name}` },
        },
      })
      if (name !== 'guilder') continue
      await converge(f)
      const [event] = await eventsOf(f, ['UndefinedParameter'])
      expect(event?.message).toContain('1 destination: zloty (Location')
      expect(event?.count).toBe(2)
      expect(await cmData('guilder', 'racked')).toEqual({ rack: 'r-guilder' })
    }
    await converge(f)
    expect(await cmData('guilder', 'orphan')).toEqual({ a: '%(env)', b: '%(tier)' })
    expect(await cmData('guilder', 'racked')).toEqual({ rack: 'r-guilder' })
    expect(await translated(f)).toMatchObject({ status: 'True' })
  })

  it('re-customizes the copies of a relabelled Location, and only those', async () => {
    const before = await hashOf(f, 'guilder', 'configmaps', 'greeting')
    const loc = (await f.client.get(IMW, LOCATIONS, 'florin'))!
    await f.client.update(IMW, LOCATIONS, {
      ...loc,
      metadata: { ...loc.metadata, labels: { ...loc.metadata.labels, city: 'cluj' } },
    })
    await converge(f)
    expect((await copyOf(f, 'florin', 'configmaps', 'greeting'))?.metadata.labels?.city).toBe(
      'cluj'
    )
    expect(await hashOf(f, 'guilder', 'configmaps', 'greeting')).toBe(before)
  })

  it('follows an edited Customizer', async () => {
    const cz = (await f.client.get(WS, CUSTOMIZERS, 'cz-cm', 'app'))!
    await f.client.update(WS, CUSTOMIZERS, {
      ...cz,
      replacements: [{ path: '$.data.where', value: '"At %(loc)"' }],
    })
    await converge(f)
    expect(await cmData('zloty', 'greeting')).toEqual({ where: 'At zloty' })
  })

  it('reports a failed replacement naming the Customizer and the replacement', async () => {
    const cz = (await f.client.get(WS, CUSTOMIZERS, 'cz-deploy', 'app'))!
    await f.client.update(WS, CUSTOMIZERS, {
      ...cz,
      replacements: [{ path: '$.spec.template.spec.containers.4.image', value: '"x"' }],
    })
    await converge(f)
    expect((await container('florin')).image).toBe('nginx:1')
    const [event] = await eventsOf(f, ['CustomizationFailed'])
    expect(event?.message).toContain('Customizer "app/cz-deploy": replacement 1')
    expect(event?.message).toContain('index 4 is out of range')
    expect(await translated(f)).toMatchObject({ status: 'False', reason: 'CustomizationFailed' })
  })
})
