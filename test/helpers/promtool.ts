/**
 * Whether Prometheus's `promtool` is here to lint metrics text with. On a developer's machine
 * without it the lint is left out; under CI (`CI` set, as `.ci/run` runs) its absence is an
 * error, since `.ci/run` installs it: a check that silently skips there checks nothing.
 */
import { spawnSync } from 'node:child_process'

const probe = () => spawnSync('promtool', ['--version']).status === 0

export function hasPromtool(env: NodeJS.ProcessEnv = process.env, found = probe()): boolean {
  if (!found && env.CI)
    throw new Error('promtool is not installed; .ci/run installs it (Debian package prometheus)')
  return found
}
