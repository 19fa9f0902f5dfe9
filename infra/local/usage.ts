/**
 * The `npm start -- --help` text: what the local stack starts, the environment variables it
 * honours and the files it keeps in the data folder.
 */

export const USAGE = `Usage: npm start [-- --help]

Starts the edgeplane center locally and keeps it running until Ctrl-C or SIGTERM:
  - dynalite (local DynamoDB) on a free loopback port, data kept in $EDGEPLANE_DATA/dynalite
  - the table (created if missing) and the hub bootstrap: spaces root and root:espw, admin token
  - wrangler dev running the Worker (functions/index.ts) on https://127.0.0.1:$EDGEPLANE_PORT,
    with a self-signed certificate the kubeconfig trusts (kubectl sends tokens only over https)
  - a cron ticker calling the Worker's scheduled() every minute (change-log sweep, terminations)
  - the watch relay (infra/relay/main.ts): watches the hub and posts reconcile keys to its hooks
    (mailbox, where, translate); restarted with backoff if it dies; EDGEPLANE_RELAY=off leaves it out
  - (to come) simulated edge clusters
When ready it prints one line with the hub URL and the kubeconfig path; logs (JSON) go to stderr,
wrangler's output to $EDGEPLANE_DATA/wrangler.log and the relay's to $EDGEPLANE_DATA/relay.log.
Stopping keeps all data; the next start reuses the table, the admin token, the certificate and
every object (and the relay resumes from its saved watch cursors).

Environment:
  EDGEPLANE_PORT   hub port on 127.0.0.1 (default 8787); other ports are picked free
  EDGEPLANE_DATA   data folder (default .edgeplane/)
  TABLE_NAME       DynamoDB table name (default edgeplane)
  LOG_LEVEL        debug | info | warn | error (default info), for this program, the Worker and
                   the relay
  EDGEPLANE_RELAY  on | off (default on): run the watch relay

Files in the data folder:
  admin-token      the admin bearer token (mode 0600), generated on first start
  kubeconfig       contexts root (current) and root:espw (mode 0600)
  tls/             cert.pem (the hub's certificate, also its CA) and key.pem (mode 0600)
  stack.json       URLs, ports (dynalite endpoint, inspector) and pids of the running stack
                   (relay.pid is rewritten when the relay restarts: kill it to test a restart)
  dynalite/        the stored objects, spaces and tokens
  wrangler/        wrangler dev state (--persist-to)
  wrangler.log     wrangler and Worker output
  relay.log        the watch relay's output
  lock             pid of the program owning the folder, while it runs

Examples:
  npm start
  KUBECONFIG=.edgeplane/kubeconfig kubectl get workspaces
  curl --cacert .edgeplane/tls/cert.pem -H "Authorization: Bearer $(cat .edgeplane/admin-token)" \\
    https://127.0.0.1:8787/clusters/root/api/v1/namespaces
  EDGEPLANE_PORT=8800 EDGEPLANE_DATA=/tmp/second npm start   # a second stack alongside
  EDGEPLANE_RELAY=off npm start                                # no relay: steps run only by cron
`
