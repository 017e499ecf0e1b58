/**
 * The model inputs (hex `embeddingInputHash`es) an embedding pass has embedded, in 8 bytes each at
 * a load of at most one half: 1M inputs take 16-32 MB, where a `Set<string>` of the hashes takes
 * about 100. Only the first 13 hex digits (52 bits, exact in a double) are kept, so an answer of
 * "seen" may be wrong once in about 2^52 / n lookups: callers treat it as "maybe" and confirm.
 */
export class InputHashSet {
  /** Key + 1, so that 0 marks an empty slot; linear probing. */
  private slots = new Float64Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(hash: string): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    if (insert(this.slots, keyOf(hash))) this.count++;
  }

  mayHave(hash: string): boolean {
    const key = keyOf(hash);
    const mask = this.slots.length - 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const v = this.slots[i];
      if (v === 0) return false;
      if (v === key) return true;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const v of old) if (v !== 0) insert(this.slots, v);
  }
}

function keyOf(hash: string): number {
  const key = parseInt(hash.slice(0, 13), 16);
  if (!Number.isSafeInteger(key)) throw new TypeError(`not a hex hash: ${hash}`);
  return key + 1;
}

/** The hash's low bits are as random as any: they pick the slot. */
function slotOf(key: number, mask: number): number {
  return key % (mask + 1);
}

/** False if the key was there already. */
function insert(slots: Float64Array, key: number): boolean {
  const mask = slots.length - 1;
  for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
    const v = slots[i];
    if (v === key) return false;
    if (v === 0) {
      slots[i] = key;
      return true;
    }
  }
}
