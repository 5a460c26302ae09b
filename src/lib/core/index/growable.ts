/** An append-only Uint32Array that doubles its capacity: postings and per-document columns. */

export class GrowableUint32 {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 4) {
    this.data = new Uint32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}
