/** Console logging with one prefix, so the app's own messages are easy to find. */
export const logger = {
  info: (...args: unknown[]) => console.info('[threadreach]', ...args),
  warn: (...args: unknown[]) => console.warn('[threadreach]', ...args),
  error: (...args: unknown[]) => console.error('[threadreach]', ...args),
};
