// A bounded FIFO that makes room by evicting its oldest item: a subscriber's buffer. A ring, so both ends
// are O(1) whatever the capacity (Array#shift moves every element once an array is large). The ring grows
// by doubling up to the capacity, so a buffer of a million records costs memory only when it fills.
export class DropOldestQueue<T> {
  readonly capacity: number;
  #slots: (T | undefined)[];
  #head = 0;
  #length = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.#slots = new Array<T | undefined>(Math.min(capacity, 16));
  }

  get length(): number {
    return this.#length;
  }

  get full(): boolean {
    return this.#length === this.capacity;
  }

  /** Appends `item`; when the queue is full the oldest item is evicted first. Returns whether one was. */
  push(item: T): boolean {
    if (this.#length === this.#slots.length && this.#length < this.capacity) this.#grow();
    const size = this.#slots.length;
    if (this.#length === this.capacity) {
      // Full: the new item takes the oldest one's slot and the head moves past it.
      this.#slots[this.#head] = item;
      this.#head = this.#head + 1 === size ? 0 : this.#head + 1;
      return true;
    }
    const tail = this.#head + this.#length;
    this.#slots[tail < size ? tail : tail - size] = item;
    this.#length++;
    return false;
  }

  /** Removes and returns the oldest item (undefined when empty). */
  shift(): T | undefined {
    if (this.#length === 0) return undefined;
    const item = this.#slots[this.#head];
    this.#slots[this.#head] = undefined;
    this.#head = this.#head + 1 === this.#slots.length ? 0 : this.#head + 1;
    this.#length--;
    return item;
  }

  /** Empties the queue; returns how many items it held. */
  clear(): number {
    const held = this.#length;
    this.#slots = new Array<T | undefined>(Math.min(this.capacity, 16));
    this.#head = 0;
    this.#length = 0;
    return held;
  }

  #grow(): void {
    const size = this.#slots.length;
    const grown = new Array<T | undefined>(Math.min(this.capacity, size * 2));
    for (let index = 0; index < this.#length; index++) {
      const from = this.#head + index;
      grown[index] = this.#slots[from < size ? from : from - size];
    }
    this.#slots = grown;
    this.#head = 0;
  }
}
