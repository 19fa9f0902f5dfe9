/**
 * A request cut mid-body, as a killed workerd or wrangler leaves one: a socket to `port` sends a
 * POST's head announcing 1,000 bytes and the first few of them, waits until the server has read
 * them (it answers nothing before the body ends), then is destroyed.
 */
import { connect } from 'node:net'

export async function sendHalfRequest(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('error', reject)
  })
  const head =
    'POST / HTTP/1.1\r\nHost: local\r\nContent-Type: application/x-amz-json-1.0\r\n' +
    'X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: 1000\r\n\r\n{"TableName":'
  await new Promise<void>((resolve) => socket.write(head, () => resolve()))
  // The server reads what was written before the reset reaches it: give it the time to.
  await new Promise((r) => setTimeout(r, 100))
  socket.destroy()
  await new Promise((r) => setTimeout(r, 100))
}
