/**
 * The dashboard e2e's Rollout part (test/e2e/dashboard.test.ts), kept apart so that file stays
 * short: in the space the shop is placed in, a Rollout `shop` with wave `first` (tulip's
 * Location, loc-name=tulip) and a catch-all wave `rest` (florin), whose gate soaks for an hour so
 * a revision stays at the first wave; then, in the matrix: the Rollout bar names it with revision
 * 1 completed, every cell holds r1 (the stamp of its copies), each column carries its wave's
 * number; after a change of the shop's page, revision 2 is in flight at wave first, tulip's cell
 * holds r2 while florin's still holds r1, and tulip's drill-down says its page copy is at r2.
 * It leaves the page on the edges view, where the tests before it left it.
 */
import { expect } from 'vitest'
import type { TestBrowser } from './browser.ts'
import type { EdgeStack } from './edge-stack.ts'
import { ok } from './kubectl.ts'
import type { StackClient } from './stack-client.ts'

const ROLLOUT = `apiVersion: edge.kcp.io/v1alpha1
kind: Rollout
metadata: {name: shop}
spec:
  namespaceSelector: {matchLabels: {app: shop}}
  waves:
  - name: first
    locationSelectors: [{matchLabels: {loc-name: tulip}}]
  - name: rest
  gate: {soakSeconds: 3600}
`

const cell = (edge: string) => `[data-testid=cell][data-placement=shop][data-edge=${edge}]`
const bar = (attrs: string) => `[data-testid=rollout][data-rollout=shop]${attrs}`

export async function rolloutInMatrix(
  browser: TestBrowser,
  stack: StackClient,
  edges: EdgeStack,
  space: string
): Promise<void> {
  const { page } = browser
  const wait = (selector: string) => page.waitForSelector(selector, { timeout: 180_000 })
  ok(await stack.kubectl([...edges.at(space), 'apply', '-f', '-'], { input: ROLLOUT }))
  await page.click('[data-testid=nav-matrix]')
  await wait(bar('[data-completed="1"]'))
  await wait(`${cell('tulip')}[data-revision=r1]`)
  await wait(`${cell('florin')}[data-revision=r1]`)
  const mark = (edge: string) =>
    page.locator(`[data-testid=col-head][data-edge=${edge}] [data-testid=wave-mark]`).textContent()
  expect(await mark('tulip')).toBe('1')
  expect(await mark('florin')).toBe('2')
  expect(await page.locator('[data-testid=row-rollout]').count()).toBe(1)

  await edges.applyShop(space, 2, 'v2')
  await wait(bar('[data-revision="2"][data-current-wave=first]'))
  await wait(`${cell('tulip')}[data-revision=r2]`)
  expect(await page.locator(cell('florin')).getAttribute('data-revision')).toBe('r1')
  expect(await page.locator(cell('florin')).getAttribute('data-behind')).toBe('false')
  await browser.screenshot('matrix-rollout')

  await page.click(cell('tulip'))
  const drill = page.locator('[data-testid=drill]')
  await drill.waitFor({ timeout: 30_000 })
  const revision = drill.locator('[data-name=page] [data-testid=object-revision]')
  await revision.waitFor({ timeout: 30_000 })
  expect(await revision.getAttribute('data-revision')).toBe('2')
  await browser.screenshot('cell-rollout')
  await page.keyboard.press('Escape')
  await drill.waitFor({ state: 'hidden', timeout: 10_000 })
  // Back where the tests after this one expect the page: the edges view.
  await page.click('[data-testid=nav-edges]')
  await page.waitForSelector('[data-testid=edges-view]')
}
