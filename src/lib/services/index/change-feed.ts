/** Who wants to hear that the index changed (the status line, other tabs): a plain listener set. */
export class ChangeFeed {
  private readonly listeners = new Set<() => void>();

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(): void {
    for (const listener of this.listeners) listener();
  }
}
