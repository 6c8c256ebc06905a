/**
 * One timer for "run this at the earliest due time": the scheduler computes the
 * next due time after every run and arms the timer for it, so there is never
 * more than one pending setTimeout however many deliveries or steps are waiting.
 */
const MAX_DELAY = 2 ** 31 - 1;

export class DueTimer {
  private timer: NodeJS.Timeout | undefined;
  private armedAt: number | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private stopped = false;

  constructor(
    private readonly run: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Arms the timer for `at` (real ms), or disarms it for null. Replaces any earlier arming. */
  schedule(at: number | null): void {
    if (this.stopped) {
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = undefined;
    this.armedAt = undefined;
    if (at === null) {
      return;
    }
    const delay = Math.min(MAX_DELAY, Math.max(0, at - this.now()));
    this.armedAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedAt = undefined;
      this.run();
    }, delay);
  }

  /** Runs soon (once, however many times it is called before then). */
  wake(): void {
    if (this.stopped || this.immediate) {
      return;
    }
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      if (!this.stopped) {
        this.run();
      }
    });
  }

  get nextAt(): number | undefined {
    return this.armedAt;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    if (this.immediate) {
      clearImmediate(this.immediate);
    }
    this.timer = undefined;
    this.immediate = undefined;
  }
}
