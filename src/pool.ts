/**
 * The bounded pool every bulk command shares (import, apply, history, report): at most
 * `size` calls of `work` in flight, items taken in order. Rate limits are not handled
 * here: a 429 pauses every request of the one HTTP client, so the whole pool waits.
 * With `signal`, no new item starts once it aborts; those in flight finish.
 */
export async function runPool<T>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
}
