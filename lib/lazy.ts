// Loading on first use. The server starts with what every request needs; a dependency that only
// some requests use (wallet passes, mail, QR codes, the PDF writer, MCP) is imported by the first
// request that needs it, through one `lazy` loader per dependency, so that the idle process stays
// small (docs/decisions.md, "a lighter start"). Types still come from `import type`.

/** `load` run once, on the first call; every call shares its promise. A failed load is tried again. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err) => {
      loading = undefined;
      throw err;
    }));
}
