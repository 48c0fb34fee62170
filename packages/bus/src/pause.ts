/**
 * A sleep another part of the same object can cut short (a notification, new partitions,
 * stop()): the relay and the stream consumer both wait between rounds this way.
 */
export class Pause {
  private wakeUp: (() => void) | undefined;

  /** Resolves after `ms`, or sooner on wake(). */
  for(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}
