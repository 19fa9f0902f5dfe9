/**
 * The dashboard's placement preview (functions/dashboard/preview.ts) over the summarize tests'
 * world (Locations e1, e2 env=prod and e3 env=dev in root:imw): a body pasted from a manifest
 * works in YAML or JSON — a whole EdgePlacement, `{spec}` or the spec alone — and the Locations
 * and destinations it lists name their inventory space by path, not by id; what is not an
 * EdgePlacement spec is a 400 Status saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { specOfBody } from '../../../functions/dashboard/preview.ts'
import { ApiError } from '../../../lib/errors.ts'
import { ADMIN_TOKEN } from '../../helpers/hub.ts'
import {
  createWorld,
  IMW,
  placeOneConfigMap,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'
import { uiClient } from './ui-client.ts'

let w: World
let ui: ReturnType<typeof uiClient>

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  ui = uiClient(w.hub)
  await ui.login(ADMIN_TOKEN)
})
afterAll(() => w.close())

const post = (body: unknown, contentType = 'application/yaml') =>
  ui.call('POST', `/ui/api/preview?space=${WS}`, { body, contentType })

const SPEC_YAML = `locationSelectors:
- matchLabels: {env: dev}
namespaceSelector:
  matchLabels:
    team: app
`

const MANIFEST_YAML = `apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata:
  name: dev
spec:
${SPEC_YAML.replace(/^/gm, '  ').trimEnd()}
`

describe('dashboard preview', () => {
  it('takes the spec, the manifest or {spec}, in YAML or JSON, and names inventories by path', async () => {
    const spec = { locationSelectors: [{ matchLabels: { env: 'dev' } }] }
    for (const [what, body, type] of [
      ['a YAML spec', SPEC_YAML, 'application/yaml'],
      ['a YAML EdgePlacement', MANIFEST_YAML, 'application/yaml'],
      ['{spec} in JSON', { spec }, 'application/json'],
      ['a JSON spec sent as YAML', JSON.stringify(spec), 'application/yaml'],
    ] as const) {
      const res = await post(body, type)
      expect(res.status, what).toBe(200)
      const p = res.body.preview
      expect(p.locations, what).toEqual({
        count: 1,
        items: [{ cluster: expect.any(String), name: 'e3', inventory: IMW }],
      })
      expect(p.destinations.items[0], what).toMatchObject({
        syncTargetName: 'e3',
        locationName: 'e3',
        inventory: IMW,
      })
      expect(p.unselectedLocationCount, what).toBe(2)
      for (const u of p.unselectedLocations ?? []) expect(u.inventory, what).toBe(IMW)
    }
  })

  it('answers what is no EdgePlacement spec with a 400 Status saying why', async () => {
    for (const [body, says] of [
      ['kind: Deployment\napiVersion: apps/v1\nspec: {}\n', /EdgePlacement, not Deployment/],
      ['locationSelectors: [\n', /error decoding YAML/],
      ['- a\n- b\n', /must be an EdgePlacement/],
      ['locationSelectors: 3\n', /not an EdgePlacement spec/],
    ] as const) {
      const res = await post(body)
      expect(res.status, body).toBe(400)
      expect(res.body).toMatchObject({ kind: 'Status', message: expect.stringMatching(says) })
    }
  })
})

describe('specOfBody', () => {
  const spec = { locationSelectors: [] }
  it.each([
    ['a manifest', { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', spec }],
    ['{spec}', { spec }],
    ['{metadata, spec}', { metadata: { name: 'x' }, spec }],
    ['the spec itself', spec],
  ])('reads the spec of %s', (_what, body) => {
    expect(specOfBody(body)).toEqual(spec)
  })

  it.each([
    ['null', null],
    ['a list', [spec]],
    ['a manifest without a spec', { kind: 'EdgePlacement' }],
    ['another kind', { kind: 'Location', spec }],
    ['a spec that is no object', { spec: 'x' }],
  ])('refuses %s', (_what, body) => {
    expect(() => specOfBody(body)).toThrow(ApiError)
  })
})
