// string_decoder on the browser's TextDecoder.
export class StringDecoder {
  constructor(encoding = "utf8") {
    this.decoder = new TextDecoder(encoding === "utf8" ? "utf-8" : encoding);
  }
  write(bytes) {
    return this.decoder.decode(bytes, { stream: true });
  }
  end(bytes) {
    return bytes ? this.decoder.decode(bytes) : this.decoder.decode();
  }
}
export default { StringDecoder };
