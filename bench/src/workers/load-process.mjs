// What the bench's load processes share: their task arrives as the first message on the IPC
// channel, their reports carry the CPU they spent, and they end with the bench (a dropped
// channel means it is gone).
process.once('disconnect', () => process.exit(0));

/** The task the bench sent, once it arrives. */
export function task() {
  return new Promise((resolve) => process.once('message', resolve));
}

/** This process's CPU so far, in milliseconds. */
export function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Sends a report with this process's CPU so far; resolves once it has left. */
export function report(message) {
  return new Promise((resolve) => process.send({ ...message, cpuMs: cpuMs() }, () => resolve()));
}
