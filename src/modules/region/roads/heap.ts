// An indexed 4-ary min-heap over typed arrays (decrease-key in place): the search's queue without per-item objects.
// Four children per node halve the depth a pop sifts down (a pop is most of the search's time): 10 % less CPU than the
// binary heap on the Monaco matrices (docs/performance.md "Road travel times").
export class IndexedHeap {
  private readonly items: Uint32Array;
  private readonly keys: Float64Array;
  /** Where item i sits in the heap, or -1. */
  private readonly where: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Uint32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.where = new Int32Array(capacity).fill(-1);
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.where[this.items[i]!] = -1;
    this.size = 0;
  }

  /** Inserts the item, or lowers its key; a higher key is ignored. */
  push(item: number, key: number): void {
    let at = this.where[item]!;
    if (at < 0) {
      at = this.size++;
    } else if (key >= this.keys[at]!) {
      return;
    }
    // Sift up from `at`.
    while (at > 0) {
      const parent = (at - 1) >> 2;
      const parentKey = this.keys[parent]!;
      if (parentKey <= key) break;
      this.items[at] = this.items[parent]!;
      this.keys[at] = parentKey;
      this.where[this.items[at]!] = at;
      at = parent;
    }
    this.items[at] = item;
    this.keys[at] = key;
    this.where[item] = at;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes and returns the item with the lowest key (the heap must not be empty). */
  pop(): number {
    const top = this.items[0]!;
    this.where[top] = -1;
    const last = --this.size;
    if (last > 0) {
      const item = this.items[last]!;
      const key = this.keys[last]!;
      let at = 0;
      const keys = this.keys;
      const items = this.items;
      const where = this.where;
      for (;;) {
        const first = 4 * at + 1;
        if (first >= last) break;
        // The smallest of up to four children.
        let child = first;
        let childKey = keys[first]!;
        const end = first + 4 < last ? first + 4 : last;
        for (let c = first + 1; c < end; c++) {
          const k = keys[c]!;
          if (k < childKey) {
            child = c;
            childKey = k;
          }
        }
        if (childKey >= key) break;
        const moved = items[child]!;
        items[at] = moved;
        keys[at] = childKey;
        where[moved] = at;
        at = child;
      }
      this.items[at] = item;
      this.keys[at] = key;
      this.where[item] = at;
    }
    return top;
  }
}
