import * as Comlink from 'comlink';
import { plainError } from '../src/lib/core/errors';

/**
 * The methods an object offers: a plain object's own functions, or a class instance's methods (those
 * on its prototype chain). A class's fields are never exposed, functions or not, nor its `#private`
 * helpers, which are not on the prototype.
 */
function methodNames(api: object): string[] {
  if (Object.getPrototypeOf(api) === Object.prototype) return Object.keys(api);
  const names = new Set<string>();
  for (let o = Object.getPrototypeOf(api) as object | null; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
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
export function exposeApi(api: object, endpoint?: Comlink.Endpoint): void {
  exposeApis([api], endpoint);
}

/** Exposes the methods of several services as one API (a worker that hosts more than one). */
export function exposeApis(apis: readonly object[], endpoint?: Comlink.Endpoint): void {
  const wrapped = {} as Record<string, unknown>;
  for (const api of apis) {
    for (const key of methodNames(api)) {
      const member = (api as Record<string, unknown>)[key];
      if (typeof member !== 'function') continue;
      if (key in wrapped) throw new Error(`Two services of this worker both offer "${key}".`);
      wrapped[key] = async (...args: unknown[]) => {
        try {
          return await (member as (...a: unknown[]) => unknown).apply(api, args);
        } catch (thrown) {
          throw plainError(thrown);
        }
      };
    }
  }
  Comlink.expose(wrapped, endpoint);
}
