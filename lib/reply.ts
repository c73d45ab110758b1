// What a lib/ verb answers when its answer is not JSON: a file or a page (bytes, text or a
// stream, with its media type), an empty answer with a status (204, 304), or a redirect.
// http/reply.ts turns it into the HTTP answer: lib/ never builds a Response.

/** A body with its media type; `filename` makes it a download (Content-Disposition: attachment). */
export type FileReply = {
  /** 200 by default. */
  status?: number;
  body: string | Uint8Array | ReadableStream<Uint8Array> | null;
  contentType?: string;
  filename?: string;
  /** Other headers (Cache-Control, Last-Modified...). */
  headers?: Record<string, string>;
};

/** A 302 to `redirect`; 303 (See Other) when a posted form leads on to another page, fetched with GET. */
export type RedirectReply = { redirect: string; status?: 302 | 303; headers?: Record<string, string> };

export type Reply = FileReply | RedirectReply;

/**
 * Large JSON answers (a page of the member list: 50 items, about 47 KB), marked so that a transport
 * sends each as one piece: Bun sends a large body given whole, once the answer is ready only after
 * an await, in many small writes (server/loader.ts `jsonChunk`).
 */
const large = new WeakSet<object>();

/**
 * Answers shared between requests (a kept page of the member list: lib/members/kept.ts), marked
 * so that a transport may serialize each once and send the same text to everyone who asks. Such
 * an answer is never changed after it is marked; freezing it would say so, but a frozen object
 * takes JavaScriptCore's JSON.stringify off its fast path (47 KB page: 75 µs, frozen 272 µs).
 * A shared answer is a large one too.
 */
const shared = new WeakSet<object>();

export function largeAnswer<T extends object>(value: T): T {
  large.add(value);
  return value;
}

export function sharedAnswer<T extends object>(value: T): T {
  shared.add(value);
  return largeAnswer(value);
}

export const isLargeAnswer = (value: unknown): value is object => typeof value === "object" && value !== null && large.has(value);
export const isSharedAnswer = (value: unknown): value is object => typeof value === "object" && value !== null && shared.has(value);
