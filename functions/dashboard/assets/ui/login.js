/**
 * The login view: a form with a password field (`#login-token`) whose value is posted once, in
 * the body of `POST /ui/api/login`; the server answers with an HttpOnly session cookie. The token
 * never goes into a URL, web storage or the console, and the field is cleared on success. The
 * field has no `name`, so even a form submitted without this script sends no token.
 */
import { api } from './api.js'

const $ = (id) => document.getElementById(id)

/** Shows the login form (hiding the app), with `message` if given. */
export function showLoginView(message) {
  $('app').hidden = true
  $('login').hidden = false
  const err = $('login-error')
  err.textContent = message ?? ''
  err.hidden = !message
  $('login-token').focus()
}

/** Wires the form: `onLogin({user, admin})` after a successful login. */
export function setupLogin(onLogin) {
  const form = $('login-form')
  const input = $('login-token')
  const submit = $('login-submit')
  const err = $('login-error')
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    const token = input.value.trim()
    if (!token) return
    submit.disabled = true
    err.hidden = true
    try {
      const who = await api('login', { method: 'POST', body: { token }, quiet401: true })
      input.value = ''
      $('login').hidden = true
      onLogin(who)
    } catch (e) {
      err.textContent = e.code === 401 ? 'That token is not valid (or has expired).' : e.message
      err.hidden = false
      input.select()
    } finally {
      submit.disabled = false
    }
  })
}
