// node-postgres over a socket of Bun's own (`Bun.connect`) instead of node:net's. node:net's
// sockets are emulated in Bun by streams over the same native socket, and with pg on top they were
// a fifth of a check-in's CPU in our process (docs/decisions.md, "pgperf26" and "pgfast14"). pg's
// Connection takes a `stream` factory; this is the part of a net.Socket it uses: connect, write
// (with cork and uncork, which pg uses to send a query's messages in one write), end, destroy,
// setNoDelay, setKeepAlive, ref, unref, `writable`, and the events connect, data, error, end and
// close. TLS is not offered: a connection with `ssl` keeps node:net (see `bunSocketFor`). It also
// sends a statement whose answer nobody reads (BEGIN, a transaction's locks) ahead of the next
// one, in the same write: one round trip less each (`sendAhead`).
import { EventEmitter } from "node:events";
import { Socket as NetSocket } from "node:net";
import type { Socket } from "bun";
import { serialize } from "pg-protocol";

type Callback = (err?: Error | null) => void;

/** Written and not yet taken by the kernel past this many bytes, `write` answers false. */
const HIGH_WATER = 64 * 1024;

/** The protocol's simple Query message "BEGIN": 'Q', its length (4 + 6), the text and its 0. */
const BEGIN = Buffer.from([0x51, 0, 0, 0, 10, ...Buffer.from("BEGIN"), 0]);

export class BunSocketStream extends EventEmitter {
  /** As a net.Socket's: true from `connect` until `end` or `destroy` (writes while connecting wait). */
  writable = false;
  destroyed = false;
  private socket: Socket | undefined;
  /** Chunks written while connecting, corked, or behind what the kernel has not taken yet. */
  private queued: Uint8Array[] = [];
  private queuedBytes = 0;
  /** Callbacks of writes in `queued`, called once the kernel has taken their bytes. */
  private callbacks: Callback[] = [];
  private corked = 0;
  private ending = false;
  private closed = false;
  private needDrain = false;
  private keepAlive: [boolean, number] | undefined;
  private referenced = true;
  /** Statements to leave ahead of the next write (`sendAhead`, `readAhead`). */
  private ahead: Ahead[] = [];
  /** Statements sent ahead whose answers (up to their ReadyForQuery) are still to be taken off the data, in order. */
  private answering: Ahead[] = [];
  /** Data received while the answers of statements sent ahead are not all in yet. */
  private held: Buffer | undefined;
  /** The error the socket ended with (destroy's, or the connection's), reported before `close`. */
  private error: Error | undefined;

  connect(portOrPath: number | string, host?: string): this {
    this.writable = true;
    const handlers = {
      open: (socket: Socket) => {
        if (this.destroyed) return socket.terminate();
        this.socket = socket;
        socket.setNoDelay(true);
        if (this.keepAlive) socket.setKeepAlive(...this.keepAlive);
        if (!this.referenced) socket.unref();
        this.emit("connect");
        this.flush();
      },
      data: (_socket: Socket, data: Buffer) => {
        if (this.answering.length > 0) this.takeAheadAnswers(data);
        else this.emit("data", data);
      },
      drain: () => this.flush(),
      // The server closed its side: as a net.Socket without allowHalfOpen, close ours too.
      end: (socket: Socket) => {
        this.writable = false;
        this.emit("end");
        socket.end();
      },
      error: (_socket: Socket, err: Error) => this.fail(err),
      connectError: (_socket: Socket, err: Error) => this.fail(err),
      close: () => this.close(),
    };
    const connecting =
      typeof portOrPath === "string"
        ? Bun.connect({ unix: portOrPath, socket: handlers })
        : Bun.connect({ hostname: host || "localhost", port: portOrPath, socket: handlers });
    // A refused connection both calls connectError and rejects: one error is reported (fail).
    connecting.catch((err: Error) => this.fail(err));
    return this;
  }

  write(chunk: Uint8Array | string, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback): boolean {
    const cb = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (!this.writable) {
      const err = Object.assign(new Error("This socket has been ended by the other party"), { code: "EPIPE" });
      if (cb) queueMicrotask(() => cb(err));
      return false;
    }
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.takeAhead();
    this.queued.push(bytes);
    this.queuedBytes += bytes.byteLength;
    if (cb) this.callbacks.push(cb);
    if (this.corked === 0) this.flush();
    if (this.queuedBytes > HIGH_WATER) {
      this.needDrain = true;
      return false;
    }
    return true;
  }

  /**
   * Sends BEGIN in the same write as whatever pg writes next (a transaction's first statement),
   * instead of as a query of its own that pg would wait for: one round trip less per transaction.
   */
  beginWithNext(): void {
    this.sendAhead(BEGIN, "BEGIN");
  }

  /**
   * Sends the protocol messages `bytes` (one statement, ending with its Sync or a simple Query)
   * in the same write as whatever pg writes next, instead of as a query of its own that pg would
   * wait for. pg never sees it: its answers, up to its ReadyForQuery, are taken off the data
   * before pg's parser reads it. The server runs them in order, so what pg sends next runs after
   * it (inside the transaction it began, holding the locks it took). Should it be refused (an
   * ErrorResponse: BEGIN on a connection in a state it must not be in, a lock that lost a
   * deadlock), the connection is destroyed with that error (its SQLSTATE as `code`, 08P01 when it
   * has none): pg fails the statement behind it, which is not answered as if the one ahead had run.
   */
  sendAhead(bytes: Uint8Array, label: string): void {
    this.ahead.push({ bytes, label });
  }

  /**
   * As `sendAhead`, for a statement whose rows the caller wants: answers them (each a row of its
   * columns as PostgreSQL's text, null for NULL) once its ReadyForQuery is in; rejects with its
   * refusal, or when the connection ends first. It leaves with pg's next write only: the one who
   * asks must see that pg writes something (db/pg.ts sends an empty query when nothing else
   * comes), never write it alone, for pg may be waiting for the answer of a query in flight,
   * which comes first and would be taken for this one's.
   */
  readAhead(bytes: Uint8Array, label: string): Promise<(string | null)[][]> {
    return new Promise((resolve, reject) => {
      this.ahead.push({ bytes, label, rows: [], resolve, reject });
    });
  }

  /** Whether statements asked ahead wait for pg's next write. */
  get waitingAhead(): boolean {
    return this.ahead.length > 0;
  }

  /** Queues the statements asked ahead, to leave in the next flush. */
  private takeAhead(): void {
    for (const item of this.ahead) {
      this.answering.push(item);
      this.queued.push(item.bytes);
      this.queuedBytes += item.bytes.byteLength;
    }
    this.ahead = [];
  }

  /** Takes the answers of the statements sent ahead off `data`; passes on what follows them. */
  private takeAheadAnswers(data: Buffer): void {
    let buffer = this.held ? Buffer.concat([this.held, data]) : data;
    this.held = undefined;
    let offset = 0;
    // Messages the server may send at any time (a notice, a parameter's new value, a
    // notification) are pg's: passed on, in order, ahead of what follows the statements' answers.
    const passOn: Buffer[] = [];
    while (this.answering.length > 0) {
      if (buffer.byteLength - offset < 5) break;
      const type = buffer[offset];
      const end = offset + 1 + buffer.readUInt32BE(offset + 1);
      if (end > buffer.byteLength) break;
      if (type === 0x45 /* E: ErrorResponse */) {
        this.destroy(refusal(this.answering[0].label, buffer.subarray(offset + 5, end)));
        return;
      }
      const item = this.answering[0];
      if (type === 0x5a /* Z: ReadyForQuery */) {
        this.answering.shift();
        if (item.rows) item.resolve?.(item.rows);
      } else if (type === 0x44 /* D: DataRow */ && item.rows) item.rows.push(dataRow(buffer.subarray(offset + 5, end)));
      else if (type === 0x4e /* N: NoticeResponse */ || type === 0x53 /* S: ParameterStatus */ || type === 0x41 /* A: NotificationResponse */)
        passOn.push(buffer.subarray(offset, end));
      offset = end;
    }
    buffer = buffer.subarray(offset);
    if (this.answering.length > 0) {
      if (buffer.byteLength) this.held = Buffer.from(buffer);
    } else if (buffer.byteLength) passOn.push(buffer);
    if (passOn.length) this.emit("data", passOn.length === 1 ? passOn[0] : Buffer.concat(passOn));
  }

  cork(): void {
    this.corked++;
  }

  uncork(): void {
    if (this.corked > 0 && --this.corked === 0) this.flush();
  }

  /** Sends what is queued, in one write; what the kernel does not take waits for `drain`. */
  private flush(): void {
    const socket = this.socket;
    if (socket === undefined || this.closed || this.corked > 0) return;
    if (this.queuedBytes > 0) {
      const all = this.queued.length === 1 ? this.queued[0] : Buffer.concat(this.queued, this.queuedBytes);
      const sent = socket.write(all);
      if (sent < 0) return; // closed meanwhile: `close` follows
      if (sent < all.byteLength) {
        this.queued = [all.subarray(sent)];
        this.queuedBytes = all.byteLength - sent;
        return;
      }
      this.queued = [];
      this.queuedBytes = 0;
    }
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const cb of callbacks) cb();
    if (this.needDrain) {
      this.needDrain = false;
      this.emit("drain");
    }
    if (this.ending) socket.end();
  }

  end(chunkOrCallback?: Uint8Array | string | Callback, callback?: Callback): this {
    if (typeof chunkOrCallback === "function") callback = chunkOrCallback;
    else if (chunkOrCallback !== undefined) this.write(chunkOrCallback);
    if (callback) this.once("close", () => callback());
    if (this.ending || this.destroyed) return this;
    this.ending = true;
    this.writable = false;
    // Still connecting: what was written goes once connected, then the end (see `flush`).
    this.flush();
    return this;
  }

  destroy(err?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.writable = false;
    this.error = err;
    const socket = this.socket;
    if (socket !== undefined && !this.closed) socket.terminate();
    // Before `open` there is no socket to report its close: report it here (once, see `close`).
    else this.close();
    return this;
  }

  setNoDelay(_noDelay = true): this {
    // Always on: pg sends each query's messages in one write and waits for the answer.
    return this;
  }

  setKeepAlive(enable = false, initialDelay = 0): this {
    this.keepAlive = [enable, Math.floor(initialDelay / 1000)];
    this.socket?.setKeepAlive(enable, this.keepAlive[1]);
    return this;
  }

  ref(): this {
    this.referenced = true;
    this.socket?.ref();
    return this;
  }

  unref(): this {
    this.referenced = false;
    this.socket?.unref();
    return this;
  }

  /** The socket failed (refused, reset): its error is reported once, before `close`. */
  private fail(err: Error): void {
    if (this.closed) return;
    this.writable = false;
    if (!this.destroyed) this.error = err;
    this.destroyed = true;
    if (this.socket === undefined) this.close();
    else this.socket.terminate();
  }

  /**
   * Reports the end, once: the error if any, then `close`, both after the current call returns
   * (Bun may report the close inside `terminate()`; a net.Socket reports both on a later tick).
   */
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.writable = false;
    this.destroyed = true;
    const callbacks = this.callbacks;
    this.callbacks = [];
    this.queued = [];
    this.queuedBytes = 0;
    const err = this.error;
    // Rows asked ahead that will not come: their readers hear why.
    const unread = [...this.answering, ...this.ahead];
    this.answering = [];
    this.ahead = [];
    for (const item of unread)
      item.reject?.(err ?? Object.assign(new Error("Connection closed before a statement sent ahead was answered"), { code: "08006" }));
    queueMicrotask(() => {
      if (err) this.emit("error", err);
      const gone = Object.assign(new Error("Connection closed before the write was sent"), { code: "EPIPE" });
      for (const cb of callbacks) cb(gone);
      this.emit("close", err !== undefined);
    });
  }
}

/** A statement sent ahead: its messages, what it is called in an error, and for `readAhead` its rows and reader. */
type Ahead = {
  bytes: Uint8Array;
  label: string;
  rows?: (string | null)[][];
  resolve?: (rows: (string | null)[][]) => void;
  reject?: (err: Error) => void;
};

/** A DataRow's body: its column count, then each column's length (-1: NULL) and text. */
function dataRow(body: Buffer): (string | null)[] {
  const columns = body.readInt16BE(0);
  const row: (string | null)[] = [];
  let at = 2;
  for (let i = 0; i < columns; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) row.push(null);
    else {
      row.push(body.toString("utf8", at, at + length));
      at += length;
    }
  }
  return row;
}

/** The error of a statement sent ahead that the server refused: its ErrorResponse's fields (`body`) as a message, its SQLSTATE as `code`. */
function refusal(label: string, body: Buffer): Error {
  const fields = new Map<string, string>();
  for (const field of body.toString("utf8").split("\0")) if (field) fields.set(field[0], field.slice(1));
  return Object.assign(new Error(`${label} refused: ${fields.get("M") ?? [...fields.values()].join(" ")}`), { code: fields.get("C") ?? "08P01" });
}

/**
 * A statement's messages in the extended protocol, for `sendAhead`: Parse (only when `text` is
 * given: the first time on a connection), Bind of `values` (text, null as NULL), Execute, Sync.
 */
export function statementMessages(name: string, text: string | null, values: readonly (string | null)[]): Buffer {
  return Buffer.concat([
    ...(text === null ? [] : [serialize.parse({ name, text })]),
    serialize.bind({ statement: name, values: [...values] }),
    serialize.execute(),
    serialize.sync(),
  ]);
}

/**
 * pg's `stream` option: Bun's socket for a connection without TLS, node:net's otherwise (pg then
 * upgrades it with node:tls, which needs a net.Socket).
 */
export function bunSocketFor(config: { ssl?: unknown }): BunSocketStream | NetSocket {
  return config.ssl ? new NetSocket() : new BunSocketStream();
}
