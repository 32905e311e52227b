/**
 * The browser storage the console's sign-in code reads (`sessionStorage`), stood in for in Node
 * so that unit tests run it without a browser.
 */

/** A `Storage` kept in a Map: what was stored, and nothing else. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (name) => items.get(name) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (name) => {
      items.delete(name);
    },
    setItem: (name, value) => {
      items.set(name, String(value));
    },
  };
}

/** Installs a fresh, empty `sessionStorage`. */
export function installSessionStorage(): void {
  Object.assign(globalThis, { sessionStorage: memoryStorage() });
}
