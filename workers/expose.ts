import * as Comlink from 'comlink';
import { plainError } from '../src/lib/core/errors';

/** The method names of an object: its own and its classes' (a service's methods live on its prototype). */
function methodNames(api: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = api; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor') names.add(name);
  }
  return [...names];
}

/**
 * Exposes a worker API through comlink: every public method of `api` (a service class keeps its
 * helpers `#private`, which are not exposed). Every method's failure is turned into the plain
 * `{ code, message, detail? }` shape first: comlink would reduce an Error to its message and lose
 * the code, while a plain object survives structured clone intact.
 */
export function exposeApi<T extends object>(api: T, endpoint?: Comlink.Endpoint): void {
  const wrapped = {} as Record<string, unknown>;
  for (const key of methodNames(api) as (keyof T & string)[]) {
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
