/**
 * The control plane end to end, through `npm start` and real kubectl: an inventory space with
 * three SyncTargets and Locations, two workload spaces with overlapping EdgePlacements; then
 * every mailbox's content and SyncerConfig are checked as kubectl sees them in root:espw's child
 * spaces, and after each change (a Location relabelled, an EdgePlacement deleted, a ConfigMap
 * edited) each mailbox must converge. Nothing here calls a hook: the relay started by `npm start`
 * does, and one test kills it mid-way (the stack restarts it and its cursors resume).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { eventually, setupWorld, type World } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let world: World

beforeAll(async () => {
  stack = await startStack()
  world = await setupWorld(stack)
}, 120_000)
afterAll(async () => {
  await stack?.destroy()
})

const COMMON = [
  'configmaps/commonstuff/httpd-htdocs',
  'deployments/commonstuff/commond',
  'namespaces//commonstuff',
]
const SPECIAL = ['configmaps/specialstuff/special-htdocs', 'namespaces//specialstuff']

/** Sets the common ConfigMap's page text with `kubectl patch` in wmw-c. */
async function editPage(text: string): Promise<void> {
  const patch = JSON.stringify({ data: { 'index.html': text } })
  const args = [
    'patch',
    'configmap',
    'httpd-htdocs',
    '-n',
    'commonstuff',
    '--type=merge',
    '-p',
    patch,
  ]
  ok(await stack.kubectl([...world.at('wmw-c'), ...args]))
}

describe('control plane through npm start', () => {
  it('fills every mailbox with the union of its placements', async () => {
    await eventually(async () => {
      expect(await world.content('florin')).toEqual(COMMON)
      expect(await world.content('guilder')).toEqual([...COMMON, ...SPECIAL].sort())
      expect(await world.content('zloty')).toEqual([])
    })
  })

  it("writes each mailbox's SyncerConfig the-one", async () => {
    const guilder = await world.syncerConfig('guilder')
    expect(guilder.spec.namespaceScope.namespaces).toEqual(['commonstuff', 'specialstuff'])
    expect(guilder.spec.namespaceScope.resources).toContainEqual({
      group: 'apps',
      resource: 'deployments',
      apiVersion: 'v1',
    })
    expect(guilder.spec.upsync).toEqual([
      {
        apiGroup: 'group1.test',
        names: ['george'],
        namespaces: ['orbital'],
        resources: ['sprockets'],
      },
    ])
    const zloty = await world.syncerConfig('zloty')
    expect(zloty.spec.namespaceScope).toEqual({})
  })

  it('shows the where result and the translation on the EdgePlacement', async () => {
    const ep = okJson<KubeObject & { status: any }>(
      await stack.kubectl([
        ...world.at('wmw-c'),
        'get',
        'edgeplacement',
        'edge-placement-c',
        '-o',
        'json',
      ])
    )
    expect(ep.status.matchingLocationCount).toBe(2)
    const cond = ep.status.conditions.find((c: { type: string }) => c.type === 'Translated')
    expect(cond.status).toBe('True')
  })

  it('follows a Location relabelled into the selector', async () => {
    ok(
      await stack.kubectl([
        ...world.at('imw-1'),
        'label',
        'location',
        'zloty',
        'env=prod',
        '--overwrite',
      ])
    )
    await eventually(async () => expect(await world.content('zloty')).toEqual(COMMON))
  })

  it('empties what a deleted EdgePlacement placed, keeping the Namespace', async () => {
    ok(await stack.kubectl([...world.at('wmw-s'), 'delete', 'edgeplacement', 'edge-placement-s']))
    await eventually(async () =>
      expect(await world.content('guilder')).toEqual([...COMMON, 'namespaces//specialstuff'].sort())
    )
  })

  it('carries a ConfigMap edit to every mailbox', async () => {
    await editPage('edited')
    await eventually(async () => {
      for (const st of ['florin', 'guilder', 'zloty'])
        expect((await world.copy(st, 'commonstuff', 'httpd-htdocs')).data).toEqual({
          'index.html': 'edited',
        })
    })
  })

  it('converges after the relay is killed mid-way', async () => {
    const old = await stack.killRelay()
    await editPage('while the relay was down')
    ok(
      await stack.kubectl([
        ...world.at('imw-1'),
        'label',
        'location',
        'zloty',
        'env=dev',
        '--overwrite',
      ])
    )
    await stack.relayRestarted(old)
    await eventually(async () => {
      expect(await world.content('zloty')).toEqual(['namespaces//commonstuff'])
      for (const st of ['florin', 'guilder'])
        expect((await world.copy(st, 'commonstuff', 'httpd-htdocs')).data).toEqual({
          'index.html': 'while the relay was down',
        })
    })
  })
})
