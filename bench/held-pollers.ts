/**
 * The held fleet, a process of its own so that its CPU and sockets are not the center's: forked
 * with an IPC channel by held-idle.ts. Messages in: `start` (HeldFleetInput: every target holds
 * its desired-state poll and beats, held-fleet-run.ts), `status` (answered with the holds open now,
 * the 200 answers and the failed holds and heartbeats so far, and this process's open files), `full` (n full desired-state GETs,
 * one after another over the targets, answered when done: the parent measures the center's cost
 * of one full answer meanwhile), `stop` (answered with the run's HeldFleetResult; then it exits).
 * `--help` says this.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import { desiredPath } from './edge-poll.ts'
import {
  type HeldFleet,
  type HeldFleetInput,
  type HeldFleetResult,
  startHeldFleet,
} from './held-fleet-run.ts'
import { openFiles } from './open-files.ts'

export type HeldIn =
  | { t: 'start'; input: HeldFleetInput }
  | { t: 'status' }
  | { t: 'full'; n: number }
  | { t: 'stop' }

export type HeldOut =
  | {
      t: 'status'
      held: number
      answered: number
      openFiles: number
      failed: number
      beatsFailed: number
    }
  | { t: 'full'; done: number; failed: number }
  | { t: 'result'; result: HeldFleetResult }

if (process.argv.includes('--help')) {
  process.stdout.write(
    'usage: forked with an IPC channel by bench/held-idle.ts\n' +
      'messages: start { input: { baseUrl, targets, holdSeconds, intervalMs, heartbeatMs, openSpreadMs } },\n' +
      '          status, full { n }, stop\n'
  )
} else {
  let fleet: HeldFleet | undefined
  let input: HeldFleetInput | undefined
  const send = (m: HeldOut) => process.send?.(m)
  const fullAnswers = async (n: number) => {
    const targets = input?.targets ?? []
    const remote = createRemote({ baseUrl: input?.baseUrl ?? '', timeoutMs: 30_000 })
    let done = 0
    let failed = 0
    for (let i = 0; i < n && targets.length > 0; i++) {
      const t = targets[i % targets.length]!
      try {
        const res = await remote.send(desiredPath(t.mailbox), {
          headers: { authorization: `Bearer ${t.token}` },
        })
        await res.arrayBuffer()
        if (res.status === 200) done++
        else failed++
      } catch {
        failed++
      }
    }
    send({ t: 'full', done, failed })
  }
  process.on('message', async (m: HeldIn) => {
    if (m.t === 'start') {
      input = m.input
      fleet = startHeldFleet(m.input)
    } else if (m.t === 'status')
      send({
        t: 'status',
        held: fleet?.held() ?? 0,
        answered: fleet?.answeredCount() ?? 0,
        openFiles: openFiles(),
        ...(fleet?.failedCounts() ?? { failed: 0, beatsFailed: 0 }),
      })
    else if (m.t === 'full') await fullAnswers(m.n)
    else if (m.t === 'stop' && fleet) {
      // a 10,000-agent result is megabytes: disconnect only once it has gone out whole
      const result: HeldOut = { t: 'result', result: await fleet.stop() }
      process.send?.(result, undefined, {}, () => process.disconnect())
    }
  })
}
