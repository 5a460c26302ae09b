/** Random ids (UUID v4 from WebCrypto), optionally prefixed so a reader can tell what an id names. */
export function newId(prefix = ''): string {
  const id = crypto.randomUUID();
  return prefix ? `${prefix}_${id}` : id;
}
