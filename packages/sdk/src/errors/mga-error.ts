/** On each SDK error class: the registry symbol its instances carry (the same symbol in every copy of the package). */
const BRAND = Symbol.for("@mga/sdk.errorBrand");

/**
 * Gives an SDK error class its name and its brand. The name is set on the class and its
 * prototype rather than left to the source: the bundler renames classes (`class _ApiError`),
 * which Node's `util.inspect` would print, and a name set on the prototype is already in place
 * when the stack's first line is written.
 */
export function nameErrorClass(errorClass: abstract new (...args: never[]) => MgaError, name: string): void {
  const brand = Symbol.for(`@mga/sdk.${name}`);
  Object.defineProperty(errorClass, "name", { value: name, configurable: true });
  Object.defineProperty(errorClass, BRAND, { value: brand });
  Object.defineProperty(errorClass.prototype, "name", { value: name, writable: true, configurable: true });
  Object.defineProperty(errorClass.prototype, brand, { value: true });
}

/** The base of every error the SDK throws: catch `MgaError` for all of them. */
export class MgaError extends Error {
  static {
    nameErrorClass(this, "MgaError");
  }

  /**
   * `error instanceof ApiError` asks whether the error carries ApiError's brand instead of
   * comparing prototypes: an application can load both the ESM and the CommonJS build of this
   * package (its own import and a dependency's require), each with its own classes, and an error
   * thrown by one must be recognized by the other. A partner's own subclass is checked as usual.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    const brand: unknown = Object.hasOwn(this, BRAND) ? (this as unknown as Record<symbol, unknown>)[BRAND] : undefined;
    if (typeof brand !== "symbol") return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && brand in value;
  }

  /**
   * Rewrites the stack's first line as `toString()` now reads, for a class whose `toString` shows
   * fields set after `super()` (the stack was written before them). Loggers print the stack, and
   * so does `console.log`.
   */
  protected restateStack(): void {
    const written = Error.prototype.toString.call(this);
    if (typeof this.stack === "string" && this.stack.startsWith(written))
      this.stack = this.toString() + this.stack.slice(written.length);
  }
}
