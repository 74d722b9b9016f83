// events: the EventEmitter that classes extend when their modules load.
export class EventEmitter {
  #listeners = new Map();
  on(name, listener) {
    this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), listener]);
    return this;
  }
  addListener(name, listener) {
    return this.on(name, listener);
  }
  once(name, listener) {
    const once = (...args) => {
      this.off(name, once);
      listener.apply(this, args);
    };
    return this.on(name, once);
  }
  off(name, listener) {
    this.#listeners.set(name, (this.#listeners.get(name) ?? []).filter((l) => l !== listener));
    return this;
  }
  removeListener(name, listener) {
    return this.off(name, listener);
  }
  removeAllListeners(name) {
    if (name === undefined) this.#listeners.clear();
    else this.#listeners.delete(name);
    return this;
  }
  emit(name, ...args) {
    const listeners = this.#listeners.get(name) ?? [];
    for (const listener of listeners) listener.apply(this, args);
    return listeners.length > 0;
  }
  listenerCount(name) {
    return (this.#listeners.get(name) ?? []).length;
  }
  setMaxListeners() {
    return this;
  }
}
EventEmitter.EventEmitter = EventEmitter;
export default EventEmitter;
