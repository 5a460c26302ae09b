/**
 * A table read page by page, in key order, with the next page requested while the caller works on
 * the last one: a read is a round trip to the database's thread, and a load of every row waited on
 * each one in turn (issue 19). `read(last)` returns up to `size` rows after `last` (the first page
 * for null); a short page is the last.
 */
export async function* readAhead<T>(read: (last: T | null) => Promise<T[]>, size: number): AsyncGenerator<T[]> {
  let next = read(null);
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    const full = page.length >= size;
    if (full) {
      next = read(page[page.length - 1]!);
      next.catch(() => undefined); // thrown at the next await, or dropped when the caller stops early
    }
    yield page;
    if (!full) return;
  }
}
