/**
 * The File System Access API pieces the sync folder needs. Chromium-based browsers have them;
 * elsewhere the app offers download and upload instead. Not in TypeScript's DOM library yet, so
 * typed here.
 */
type PermissionMode = { mode: 'read' | 'readwrite' };

interface PermissionedHandle extends FileSystemDirectoryHandle {
  queryPermission?(descriptor: PermissionMode): Promise<PermissionState>;
  requestPermission?(descriptor: PermissionMode): Promise<PermissionState>;
}

interface DirectoryPickerWindow {
  showDirectoryPicker?(options?: { id?: string; mode?: 'read' | 'readwrite'; startIn?: string }): Promise<FileSystemDirectoryHandle>;
}

export function folderSyncSupported(): boolean {
  return typeof window !== 'undefined' && typeof (window as DirectoryPickerWindow).showDirectoryPicker === 'function';
}

/** Asks the person for a folder (needs a click). Null when they close the picker. */
export async function pickFolder(): Promise<FileSystemDirectoryHandle | null> {
  const picker = (window as DirectoryPickerWindow).showDirectoryPicker;
  if (!picker) return null;
  try {
    return await picker.call(window, { id: 'engram-vault-sync', mode: 'readwrite' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
}

/**
 * Read-write permission for a folder handle: queried silently, or requested (which needs a click).
 * A handle read back from IndexedDB after a reload usually starts at 'prompt'.
 */
export async function folderPermission(handle: FileSystemDirectoryHandle, request: boolean): Promise<PermissionState> {
  const permissioned = handle as PermissionedHandle;
  const descriptor: PermissionMode = { mode: 'readwrite' };
  const state = (await permissioned.queryPermission?.(descriptor)) ?? 'granted';
  if (state === 'granted' || !request) return state;
  return (await permissioned.requestPermission?.(descriptor)) ?? 'denied';
}

export function isFolderHandle(value: unknown): value is FileSystemDirectoryHandle {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'directory';
}
