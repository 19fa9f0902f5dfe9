/**
 * The dashboard's entry: the session (login or the app), the top bar (space picker, views, live
 * indicator, logout), the route in the URL hash (`#/matrix/<space>`, `#/edges/<space>`; never
 * the token) and the views: the matrix (matrix.js) and the edges (edges-view.js), with their
 * panels (cell-view.js, placement-view.js), kept current by live.js.
 */
import { api, onUnauthorized } from './api.js'
import { showCell } from './cell-view.js'
import { clear, h } from './dom.js'
import { mountEdges } from './edges-view.js'
import { tickAges } from './format.js'
import { createLive } from './live.js'
import { setupLogin, showLoginView } from './login.js'
import { mountMatrix } from './matrix.js'
import { dismiss, notify } from './notice.js'
import { closePanel, refreshPanel } from './panel.js'
import { showPlacement } from './placement-view.js'

const $ = (id) => document.getElementById(id)
const VIEWS = ['matrix', 'edges']

const state = {
  signedIn: false,
  spaces: [],
  space: '',
  view: 'matrix',
  mounted: null, // { view, space, api }
  filters: { labels: '', attention: false, edgeLabels: '', staleOnly: false },
}

const live = createLive({
  indicator: document.querySelector('[data-testid=live]'),
  onRefresh: () => {
    state.mounted?.api.refresh()
    refreshPanel()
  },
  onTick: () => {
    state.mounted?.api.tick()
    tickAges(document.body)
  },
})

const encodeSpace = (s) => encodeURIComponent(s).replace(/%3A/gi, ':')
const hashOf = (view, space) => `#/${view}${space ? `/${encodeSpace(space)}` : ''}`

function parseHash() {
  const m = /^#\/([a-z]+)(?:\/(.*))?$/.exec(location.hash)
  let space = ''
  try {
    space = m?.[2] ? decodeURIComponent(m[2]) : ''
  } catch {
    space = ''
  }
  return { view: VIEWS.includes(m?.[1]) ? m[1] : 'matrix', space }
}

function unmount() {
  closePanel()
  state.mounted?.api.destroy()
  state.mounted = null
}

function showLogin(message) {
  state.signedIn = false
  live.stop()
  unmount()
  dismiss()
  showLoginView(message)
}

function fillSpaces() {
  const select = $('space')
  clear(select)
  const paths = state.spaces.map((s) => s.path)
  if (state.space && !paths.includes(state.space))
    select.append(h('option', { value: state.space }, state.space))
  for (const s of state.spaces)
    select.append(h('option', { value: s.path }, `${s.path} (${s.placements})`))
  if (!select.options.length) select.append(h('option', { value: '' }, 'no workload space'))
  select.value = state.space
}

function mountView() {
  const host = $('view')
  const ctx = {
    space: state.space,
    filters: state.filters,
    onError: (e) => notify(e),
    openCell: (placement, edge, opener) =>
      showCell({ space: state.space, placement, edge, opener }),
    openPlacement: (name, opener) => showPlacement({ space: state.space, name, opener }),
  }
  unmount()
  dismiss()
  clear(host)
  if (state.view === 'matrix' && !state.space) {
    host.append(
      h(
        'section',
        { class: 'view empty-view', 'data-testid': 'matrix' },
        h('p', { class: 'empty' }, 'No workload space holds EdgePlacements yet.')
      )
    )
    state.mounted = {
      view: state.view,
      space: state.space,
      api: { refresh() {}, tick() {}, destroy() {} },
    }
    return
  }
  const api = state.view === 'matrix' ? mountMatrix(host, ctx) : mountEdges(host, ctx)
  state.mounted = { view: state.view, space: state.space, api }
}

function route() {
  if (!state.signedIn) return
  const want = parseHash()
  const space = want.space || state.space || state.spaces[0]?.path || ''
  const hash = hashOf(want.view, space)
  if (location.hash !== hash) history.replaceState(null, '', hash)
  const spaceChanged = space !== state.space || !state.mounted
  state.view = want.view
  state.space = space
  fillSpaces()
  for (const v of VIEWS) {
    const tab = document.querySelector(`[data-testid=nav-${v}]`)
    tab.href = hashOf(v, space)
    if (v === state.view) tab.setAttribute('aria-current', 'page')
    else tab.removeAttribute('aria-current')
  }
  if (spaceChanged) live.start(space)
  if (spaceChanged || state.mounted?.view !== state.view) mountView()
}

async function enter(who) {
  state.signedIn = true
  $('user').textContent = who?.user ? `${who.user}${who.admin ? ' (admin)' : ''}` : ''
  $('login').hidden = true
  $('app').hidden = false
  try {
    state.spaces = (await api('spaces')).items ?? []
  } catch (e) {
    if (e.code === 401) return
    state.spaces = []
    notify(e)
  }
  state.mounted = null
  route()
}

async function logout() {
  try {
    await api('logout', { method: 'POST', quiet401: true })
  } catch (e) {
    if (e.code !== 401) notify(e)
  }
  showLogin('Signed out.')
}

async function start() {
  onUnauthorized(() => showLogin('Your session has ended: sign in again.'))
  setupLogin(enter)
  $('space').addEventListener('change', (e) => {
    location.hash = hashOf(state.view, e.target.value)
  })
  document.querySelector('[data-testid=logout]').addEventListener('click', logout)
  window.addEventListener('hashchange', route)
  try {
    enter(await api('session', { quiet401: true }))
  } catch (e) {
    showLogin(e.code === 401 ? undefined : e.message)
  }
}

start()
