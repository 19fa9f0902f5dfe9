/**
 * A real browser for the end-to-end tests: Debian's Chromium (`/usr/bin/chromium`, or
 * EDGEPLANE_CHROMIUM) driven by playwright-core, headless, without the background connections a
 * closed network refuses, trusting the local stack's self-signed certificate. Every request URL
 * the page makes is recorded (so a test can check that no token ever went into one), as are the
 * answers that failed and the page's errors, and
 * screenshots go to the artifacts folder (`test-results/<name>/`, or EDGEPLANE_ARTIFACTS).
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { REPO_ROOT } from './stack.ts'

export const CHROMIUM = process.env.EDGEPLANE_CHROMIUM ?? '/usr/bin/chromium'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export type TestBrowser = {
  page: Page
  /** Every URL the page requested, in order. */
  urls: string[]
  /**
   * Console errors and uncaught page errors, in order; the browser's own "Failed to load
   * resource" lines are left out: `failed` has those answers with their URLs.
   */
  errors: string[]
  /** Every answer with a status of 400 or more: `<status> <method> <path>`. */
  failed: string[]
  /** Writes a full-page screenshot `<name>.png` to the artifacts folder; its path. */
  screenshot(name: string): Promise<string>
  close(): Promise<void>
}

export async function openBrowser(artifacts: string): Promise<TestBrowser> {
  const dir = process.env.EDGEPLANE_ARTIFACTS
    ? join(process.env.EDGEPLANE_ARTIFACTS, artifacts)
    : join(REPO_ROOT, 'test-results', artifacts)
  await mkdir(dir, { recursive: true })
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  const context: BrowserContext = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1440, height: 900 },
  })
  const page = await context.newPage()
  const urls: string[] = []
  const errors: string[] = []
  const failed: string[] = []
  page.on('request', (r) => urls.push(r.url()))
  page.on('response', (r) => {
    if (r.status() >= 400)
      failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`)
  })
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(String(e)))
  return {
    page,
    urls,
    errors,
    failed,
    async screenshot(name) {
      const path = join(dir, `${name}.png`)
      await page.screenshot({ path, fullPage: false })
      return path
    },
    close: () => browser.close(),
  }
}
