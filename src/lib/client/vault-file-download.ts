/** Hands a Blob to the browser as a download (the export's "Save" step where no folder is chosen). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
