// Unsticks the mongodb driver's server monitor after the database drops mid-request.
//
// The driver (6.x and 7.9 alike) can start a heartbeat on its monitor connection in the short
// window after the socket was ended by the peer but before the connection saw the socket close:
// `writeCommand` then writes to an ended socket and waits for a 'drain' that never comes (an
// ended socket emits neither 'drain' nor 'error', and a destroyed socket's timeout never fires).
// The monitor stays in that heartbeat forever, the server stays Unknown, and every operation
// fails server selection although the database is back (docs/faults.md, issue 18).
//
// The watchdog sees a polled heartbeat that outlives its own socket timeout (connectTimeoutMS)
// by a margin and fails it: it emits an error on the monitor's socket, which rejects the
// pending 'drain' wait, so the driver reports the heartbeat failed, drops that connection and
// connects afresh at the next check. Only internal fields are touched, behind guards: when the
// driver's shape changes, the watchdog logs that it cannot help and does nothing.
import type { MongoClient, ServerHeartbeatStartedEvent } from 'mongodb';

export interface WatchdogOptions {
  /** The client's connectTimeoutMS: a polled heartbeat's own socket timeout. */
  heartbeatTimeoutMs: number;
  log?: (msg: string, details: Record<string, unknown>) => void;
}

interface MonitorShape { connection?: { socket?: { destroyed?: boolean; writableEnded?: boolean; emit(event: string, err: Error): boolean } } | null }

/** Returns a function that stops the watchdog. */
export function watchHeartbeats(client: MongoClient, opts: WatchdogOptions): () => void {
  const pending = new Map<string, NodeJS.Timeout>();
  const graceMs = opts.heartbeatTimeoutMs + 2000;
  const settle = (address: string) => {
    clearTimeout(pending.get(address));
    pending.delete(address);
  };
  const onStarted = (event: ServerHeartbeatStartedEvent) => {
    // Awaited (streaming) heartbeats are long by design; FerretDB and polling servers use the other kind.
    if (event.awaited) return;
    settle(event.connectionId);
    pending.set(event.connectionId, setTimeout(() => {
      pending.delete(event.connectionId);
      unstick(client, event.connectionId, opts);
    }, graceMs).unref());
  };
  const onSettled = (event: { connectionId: string }) => settle(event.connectionId);
  client.on('serverHeartbeatStarted', onStarted);
  client.on('serverHeartbeatSucceeded', onSettled);
  client.on('serverHeartbeatFailed', onSettled);
  return () => {
    client.off('serverHeartbeatStarted', onStarted);
    client.off('serverHeartbeatSucceeded', onSettled);
    client.off('serverHeartbeatFailed', onSettled);
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
  };
}

function unstick(client: MongoClient, address: string, opts: WatchdogOptions) {
  const servers = (client as unknown as { topology?: { s?: { servers?: Map<string, { monitor?: MonitorShape }> } } }).topology?.s?.servers;
  if (!servers) return; // closed meanwhile
  const socket = servers.get(address)?.monitor?.connection?.socket;
  if (!socket || typeof socket.emit !== 'function') {
    opts.log?.('database monitor heartbeat overdue; the driver exposes no monitor socket to reset', { address });
    return;
  }
  // A heartbeat on a live socket is only slow: its own socket timeout answers it.
  if (!socket.destroyed && !socket.writableEnded) return;
  opts.log?.('database monitor heartbeat stuck on a closed socket; failing it so the driver reconnects', { address });
  socket.emit('error', new Error('heartbeat stuck on a closed socket (db-watchdog)'));
}
