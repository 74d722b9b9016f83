// A Map that forgets its oldest entries past a limit: what the traffic checks remember between
// answers (list items, leave type names, what each key was shown) stays bounded on a long run.
export class Recent<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get size() {
    return this.map.size;
  }
  get(key: string) {
    return this.map.get(key);
  }
  /** Sets the value and makes the key the newest. */
  set(key: string, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
  }
}
