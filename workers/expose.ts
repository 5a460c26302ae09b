import * as Comlink from 'comlink';
import { plainError } from '../src/lib/core/errors';

/**
 * Exposes a worker API through comlink. Every method's failure is turned into the plain
 * `{ code, message, detail? }` shape first: comlink would reduce an Error to its message and lose
 * the code, while a plain object survives structured clone intact.
 */
export function exposeApi<T extends object>(api: T, endpoint?: Comlink.Endpoint): void {
  const wrapped = {} as Record<string, unknown>;
  for (const key of Object.keys(api) as (keyof T & string)[]) {
    const member = api[key];
    if (typeof member !== 'function') continue;
    wrapped[key] = async (...args: unknown[]) => {
      try {
        return await (member as (...a: unknown[]) => unknown).apply(api, args);
      } catch (thrown) {
        throw plainError(thrown);
      }
    };
  }
  Comlink.expose(wrapped, endpoint);
}
