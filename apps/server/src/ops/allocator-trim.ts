import { createRequire } from "node:module";
import type Koffi from "koffi";

/**
 * glibc's `malloc_trim(0)`: hands the C allocator's free pages back to the system, in every
 * arena and in the middle of the heap, not only at its top as `free` does. After a burst of
 * streams, what Node allocated outside V8 for them (sockets, HTTP parsers, buffers) is freed
 * but scattered through the main heap, and stays resident: about 100 MiB after 5,000 streams
 * (docs/architecture.md, "Memory"). Called through koffi, an FFI whose binaries come prebuilt
 * per platform, so no compiler is needed at install. Undefined where there is no glibc to ask
 * (macOS, musl: loading it or finding the function fails there) or no koffi binary for the
 * platform: koffi is loaded here, not imported, so that neither stops the server starting.
 */
export function allocatorTrim(): (() => boolean) | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as typeof Koffi;
    const trim = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as (pad: number) => number;
    return () => trim(0) === 1;
  } catch {
    return undefined;
  }
}
