/**
 * The dashboard in a real browser (headless Debian Chromium through playwright-core) against
 * `npm start` with three simulated edges — florin and tulip (env=prod) and guilder (env=dev) — and
 * the shop workload placed to env=prod, plus a ConfigMap florin already has, which its agent
 * reports as a foreign object in the way: the login keeps the token out of every URL; the matrix
 * shows the placement's real states per edge (tulip ready, florin failed) and follows the hub's
 * watch without a reload; a cell opens the customized copy the edge receives, what it reported
 * and what it owns there; the placement panel shows guilder not selected with its reason; the
 * edges view lists all three; and when tulip's agent is stopped
 * (frozen), tulip turns stale — grey, "stale", never failed — in both views. A screenshot of each
 * view is written to test-results/dashboard/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser, type TestBrowser } from './helpers/browser.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
let browser: TestBrowser
let frozen: number | undefined

const SPACE = 'root:wmw'

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,tulip:env=prod,guilder:env=dev' })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
  // The edge's own ConfigMap goes into the namespace the workload brought there.
  await eventually(async () => {
    expect(await edges.get(['--context', 'florin'], 'configmap', 'shop', 'page')).toBeDefined()
  }, 120_000)
  await edges.foreignConfigMap('florin', 'wmw', 'clash')
  browser = await openBrowser('dashboard')
}, 360_000)
afterAll(async () => {
  if (frozen !== undefined) process.kill(frozen, 'SIGCONT')
  await browser?.close()
  await stack?.destroy()
})

const cell = (edge: string, state?: string) =>
  `[data-testid=cell][data-placement=shop][data-edge=${edge}]${state ? `[data-state=${state}]` : ''}`

describe('the dashboard', () => {
  it('logs in without the token ever reaching a URL', async () => {
    const { page } = browser
    await page.goto(`${stack.url}/ui/`)
    await page.fill('#login-token', stack.adminToken())
    await page.click('#login-submit')
    await page.waitForSelector('[data-testid=matrix]', { timeout: 30_000 })
    expect(await page.inputValue('#login-token').catch(() => '')).toBe('')
    await page.selectOption('#space', SPACE)
    // It follows the hub's watch: nothing below reloads the page.
    await page.waitForSelector('[data-testid=live][data-state=connected]', { timeout: 30_000 })
    for (const url of browser.urls) expect(url).not.toContain(stack.adminToken())
    expect(page.url()).not.toContain(stack.adminToken())
  }, 60_000)

  it('shows the placement at each edge with its real state', async () => {
    const { page } = browser
    await page.waitForSelector(cell('tulip', 'ready'), { timeout: 120_000 })
    await page.waitForSelector(cell('florin', 'failed'), { timeout: 120_000 })
    expect(await page.locator('[data-testid=cell][data-edge=guilder]').count()).toBe(0)
    await browser.screenshot('matrix')
  }, 180_000)

  it('drills into a cell: the copy florin receives and what it reported', async () => {
    const { page } = browser
    await page.click(cell('florin'))
    const drill = page.locator('[data-testid=drill]')
    await drill.waitFor({ timeout: 30_000 })
    await expect
      .poll(async () => (await drill.textContent()) ?? '', { timeout: 30_000 })
      .toContain('ForeignObject')
    const copies = await drill.locator('[data-testid=copy]').allInnerTexts()
    expect(copies.join('\n')).toContain('"index.html": "v1"')
    // The Deployment's copy owns a ReplicaSet and Pods at the edge, as its agent reports them (in
    // whatever order); an open drill-down follows the reports as they come.
    const owned = drill.locator('[data-name=web] [data-testid=associated]')
    const ownedText = async () => (await owned.textContent()) ?? ''
    await expect.poll(ownedText, { timeout: 30_000 }).toContain('ReplicaSet')
    expect(await ownedText()).toMatch(/Pod\s*shop\/web-/)
    await browser.screenshot('cell')
    await page.keyboard.press('Escape')
    await drill.waitFor({ state: 'hidden', timeout: 10_000 })
  }, 60_000)

  it('opens the placement: guilder is not selected, and why', async () => {
    const { page } = browser
    await page.click('[data-testid=row-head][data-placement=shop]')
    const panel = page.locator('[data-testid=placement-panel]')
    await panel.waitFor({ timeout: 30_000 })
    const unselected = panel.locator('[data-testid=unselected]')
    await expect
      .poll(() => unselected.allInnerTexts(), { timeout: 30_000 })
      .toEqual([expect.stringMatching(/guilder[\s\S]*SelectorMismatch/)])
    await browser.screenshot('placement')
    await page.keyboard.press('Escape')
  }, 60_000)

  it('lists every edge in the edges view', async () => {
    const { page } = browser
    await page.click('[data-testid=nav-edges]')
    await page.waitForSelector('[data-testid=edges-view]')
    for (const name of ['florin', 'guilder', 'tulip'])
      await page.waitForSelector(`[data-testid=edge-row][data-edge=${name}][data-stale=false]`, {
        timeout: 60_000,
      })
    await browser.screenshot('edges')
  }, 90_000)

  it('shows an edge whose agent stopped as stale, not failed', async () => {
    const { page } = browser
    const tulip = (await stack.readInfo()).edges.find((e) => e.name === 'tulip')
    if (!tulip?.agentPid) throw new Error('no tulip agent in stack.json')
    frozen = tulip.agentPid
    process.kill(frozen, 'SIGSTOP')
    // No heartbeat for three minutes makes an edge stale; the page re-reads every 15 s.
    await page.waitForSelector('[data-testid=edge-row][data-edge=tulip][data-stale=true]', {
      timeout: 300_000,
    })
    await browser.screenshot('edges-stale')
    await page.click('[data-testid=nav-matrix]')
    await page.waitForSelector(cell('tulip', 'stale'), { timeout: 60_000 })
    expect(await page.locator(cell('tulip', 'failed')).count()).toBe(0)
    await browser.screenshot('matrix-stale')
    expect(browser.errors).toEqual([])
    // Only the page's first question, before the login: is there a session?
    expect(browser.failed).toEqual(['401 GET /ui/api/session'])
  }, 420_000)
})
