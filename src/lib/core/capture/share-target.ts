/**
 * The Web Share Target and File Handling contract between the manifest, the service worker and
 * the Import screen. Pure: the service worker and the client both import these names.
 */

/** The manifest's share_target action (POST, multipart/form-data). */
export const SHARE_ACTION = '/share';
/** The form field the manifest names for shared files. */
export const SHARE_FILES_FIELD = 'files';
/** Cache (Cache API) that holds shared files until the person imports or discards them. */
export const INCOMING_CACHE = 'engram-incoming-files';
/** Key prefix of one batch of shared files: `/__incoming/<batch>/<n>`. */
export const INCOMING_PREFIX = '/__incoming/';
/** Headers that carry a shared file's name and time through the cache. */
export const NAME_HEADER = 'x-engram-file-name';
export const MODIFIED_HEADER = 'x-engram-last-modified';

/** Where a share POST lands: files go to the Import screen, text and links to Capture (as before). */
export function shareRedirect(batch: string | null, fields: { title?: string; text?: string; url?: string }): string {
  if (batch !== null) return `/import?incoming=${encodeURIComponent(batch)}`;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value) query.set(key, value);
  const q = query.toString();
  return q ? `/capture?${q}` : '/capture';
}
