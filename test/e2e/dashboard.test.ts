/**
 * The dashboard in a real browser (headless Debian Chromium through playwright-core) against
 * `npm start` with three simulated edges — florin and tulip (env=prod) and guilder (env=dev) — and
 * the shop workload placed to env=prod, plus a ConfigMap florin already has, which its agent
 * reports as a foreign object in the way: the login keeps the token out of every URL; the matrix
 * shows the placement's real states per edge (tulip ready, florin failed) and follows the hub's
 * watch without a reload; a row counts edges and copies apart, over the label filter's edges
 * when there is one; a malformed filter says so instead of loading for ever; a cell opens the
 * customized copy the edge receives, what it reported and what it owns there; the placement
 * panel shows guilder not selected with its reason and previews a pasted YAML EdgePlacement,
 * naming inventories by path, in view; the edges view lists all three, florin failed, with how
 * each agent polls (florin and tulip held, 300 s) and the age of its last poll, and opens an edge
 * with its failed copy and its polls; a Rollout's waves mark the columns and each cell holds the revision
 * its copies are stamped with (helpers/dashboard-rollout.ts); at 800 px the top bar stays one line with the space selector
 * whole; and when tulip's agent is stopped (frozen), tulip turns stale — grey, "stale", never
 * failed — in both views. A screenshot of each view is written to test-results/dashboard/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser, type TestBrowser } from './helpers/browser.ts'
import { rolloutInMatrix } from './helpers/dashboard-rollout.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
let browser: TestBrowser
let frozen: number | undefined

const SPACE = 'root:wmw'
/** An age as the dashboard words it: "12 s ago", "5 min ago". */
const AGO = /^\d+ (s|min) ago$/
const INVENTORY = 'root:imw-1'

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
const ROW = '[data-testid=row-head][data-placement=shop]'

/** Types `selector` into the matrix's label filter and applies it. */
async function filterLabels(selector: string) {
  await browser.page.fill('#label-filter', selector)
  await browser.page.press('#label-filter', 'Enter')
}

/** The number of copies the shop row counts ("10 copies: ..."). */
async function rowCopies(): Promise<number> {
  const text = (await browser.page.locator(`${ROW} [data-testid=row-copies]`).textContent()) ?? ''
  const n = /^([\d,]+) cop(y|ies)\b/.exec(text)?.[1]
  if (!n) throw new Error(`no count of copies in ${JSON.stringify(text)}`)
  return Number(n.replace(/,/g, ''))
}

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

  it('counts edges and copies apart in a row, over the edges a label filter matches', async () => {
    const { page } = browser
    const edgesText = async () =>
      (await page.locator(`${ROW} [data-testid=row-edges]`).textContent()) ?? ''
    await expect.poll(edgesText, { timeout: 30_000 }).toBe('2 edges')
    const all = await rowCopies()
    await filterLabels('loc-name=florin')
    await expect.poll(edgesText, { timeout: 30_000 }).toBe('1 of 2 edges')
    expect(await page.locator('[data-testid=cell][data-edge=tulip]').count()).toBe(0)
    // Two edges hold the same objects: the filter's one edge holds half the copies.
    expect(await rowCopies()).toBe(all / 2)
    expect(await page.locator(ROW).getAttribute('data-state')).toBe('failed')
    await filterLabels('')
    await expect.poll(edgesText, { timeout: 30_000 }).toBe('2 edges')
  }, 90_000)

  it('says a malformed label filter is, instead of loading for ever', async () => {
    const { page } = browser
    const before = browser.failed.length
    await filterLabels('env in (prod')
    const totals = page.locator('[data-testid=matrix-totals]')
    await expect
      .poll(async () => (await totals.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Not loaded: .*label selector "env in \(prod"/)
    expect(await page.locator('#label-filter').getAttribute('aria-invalid')).toBe('true')
    await filterLabels('')
    await page.waitForSelector(cell('florin', 'failed'), { timeout: 30_000 })
    // The refusals were the filter's own, and only those: the last test checks the rest.
    const refused = browser.failed.splice(before)
    expect(refused.length).toBeGreaterThan(0)
    for (const f of refused) expect(f).toBe('400 GET /ui/api/matrix')
  }, 90_000)

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
  }, 60_000)

  it('previews a pasted YAML EdgePlacement, naming inventories by path, in view', async () => {
    const { page } = browser
    const panel = page.locator('[data-testid=placement-panel]')
    await page.fill(
      '#preview-spec',
      [
        'apiVersion: edge.kcp.io/v1alpha1',
        'kind: EdgePlacement',
        'metadata:',
        '  name: shop-dev',
        'spec:',
        '  locationSelectors:',
        '  - matchLabels: {env: dev}',
        '  namespaceSelector:',
        '    matchLabels: {app: shop}',
        '',
      ].join('\n')
    )
    await page.click('[data-testid=preview-run]')
    const locations = panel.locator('[data-testid=preview-locations]')
    await locations.waitFor({ timeout: 30_000 })
    expect(await locations.textContent()).toContain(`guilder (${INVENTORY})`)
    const destinations = await panel.locator('[data-testid=preview-destinations]').textContent()
    expect(destinations).toContain(`guilder · Location guilder (${INVENTORY})`)
    // The result shows where the panel is scrolled to, not below the fold.
    const body = await panel.locator('.panel-body').boundingBox()
    const box = await locations.boundingBox()
    if (!body || !box) throw new Error('the panel or its preview is not laid out')
    expect(box.y).toBeGreaterThanOrEqual(body.y)
    expect(box.y + box.height).toBeLessThanOrEqual(body.y + body.height)
    await browser.screenshot('preview')
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
    // florin and tulip took the shop through a held poll (the stack's agents ask holds of 300 s,
    // polling their copies every 2 s): their heartbeats say so. guilder's first hold may still be
    // open, its last answered poll the plain first one.
    const cells = async (name: string) => {
      const row = page.locator(`[data-testid=edge-row][data-edge=${name}]`)
      return {
        poll: await row.locator('.td.poll').textContent(),
        last: await row.locator('.td.last-poll').textContent(),
      }
    }
    for (const name of ['florin', 'tulip']) {
      await page.waitForSelector(`[data-testid=edge-row][data-edge=${name}][data-poll-mode=held]`, {
        timeout: 90_000,
      })
      expect(await cells(name)).toEqual({ poll: 'held 300 s', last: expect.stringMatching(AGO) })
    }
    expect(await cells('guilder')).toEqual({
      poll: expect.stringMatching(/^(held 300 s|plain 2 s)$/),
      last: expect.stringMatching(AGO),
    })
    await browser.screenshot('edges')
  }, 240_000)

  it('marks florin failed in the edges view and opens it on its failed copy', async () => {
    const { page } = browser
    const row = (edge: string, state: string) =>
      `[data-testid=edge-row][data-edge=${edge}][data-state=${state}]`
    await page.waitForSelector(row('florin', 'failed'), { timeout: 60_000 })
    await page.waitForSelector(row('tulip', 'ready'), { timeout: 60_000 })
    await page.click('[data-testid=edge-row][data-edge=florin] [data-testid=open-edge]')
    const panel = page.locator('[data-testid=edge-panel]')
    const clash = panel.locator('[data-testid=edge-copy][data-name=clash][data-state=failed]')
    await clash.waitFor({ timeout: 30_000 })
    expect(await panel.getByTestId('edge-poll').textContent()).toBe(
      'held 300 s · held polls of up to 300 s, its copy every 2 s'
    )
    expect(await panel.getByTestId('edge-last-poll').textContent()).toMatch(AGO)
    expect(await clash.textContent()).toContain('ForeignObject')
    await browser.screenshot('edge')
    await clash.locator(`[data-testid=open-cell][data-space="${SPACE}"]`).click()
    const drill = page.locator('[data-testid=drill]')
    await drill.waitFor({ timeout: 30_000 })
    expect(await drill.locator('.panel-title').textContent()).toBe('shop at florin')
    await page.keyboard.press('Escape')
  }, 90_000)

  it('marks each column with its Rollout wave and each cell with its copies’ revision', async () => {
    await rolloutInMatrix(browser, stack, edges, 'wmw')
  }, 420_000)

  it('keeps the top bar on one line at 800 px, the space selector whole', async () => {
    const { page } = browser
    const measure = async () => {
      const bar = await page.locator('.topbar').boundingBox()
      const select = await page.locator('#space').boundingBox()
      if (!bar || !select) throw new Error('the top bar is not laid out')
      return { bar, select }
    }
    const wide = await measure()
    await page.setViewportSize({ width: 800, height: 900 })
    try {
      await expect.poll(async () => (await measure()).bar.width, { timeout: 10_000 }).toBe(800)
      const narrow = await measure()
      expect(narrow.bar.height).toBe(wide.bar.height)
      expect(narrow.select.width).toBe(wide.select.width)
      expect(narrow.select.x + narrow.select.width).toBeLessThanOrEqual(800)
      await browser.screenshot('edges-800')
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 })
    }
  }, 60_000)

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
