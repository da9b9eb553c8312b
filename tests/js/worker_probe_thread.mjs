// A worker script for tests (not a test file): the package's worker_thread.js, plus a listener that
// reports on the BroadcastChannel 'urnforest-worker-probe' each session rebuild the thread is asked to
// do: {session, replayed: [method, ...]}, the calls it replays before the job.
import { parentPort } from 'node:worker_threads';

const channel = new BroadcastChannel('urnforest-worker-probe');
parentPort.on('message', (message) => {
  if (message.restore !== undefined) {
    channel.postMessage({ session: message.session, replayed: message.restore.log.map((call) => call.method) });
  }
});
await import('../../dist/worker_thread.js');
