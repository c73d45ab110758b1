// The socket node-postgres runs over on PostgreSQL (db/pg-socket.ts): what pg expects of a
// net.Socket, against a local TCP server (no database needed, so on either engine's run). The
// queries themselves run over it in every PostgreSQL test.
import { afterEach, describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { BunSocketStream } from "../../db/pg-socket";

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) await new Promise((done) => server.close(done));
  servers = [];
});

/** A TCP server on a free port; `onSocket` gets each connection. */
async function serve(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer(onSocket);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as { port: number }).port;
}

/** A server that reads nothing and tells whether its side of the connection has closed. */
async function serveWatchingClose(): Promise<{ port: number; serverClosed: () => boolean }> {
  let closed = false;
  const port = await serve((socket) => {
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
    });
  });
  return { port, serverClosed: () => closed };
}

/** The events of `stream` in order, with the error codes. */
function events(stream: BunSocketStream): string[] {
  const seen: string[] = [];
  for (const name of ["connect", "end", "close", "drain"]) stream.on(name, () => seen.push(name));
  stream.on("error", (err: Error & { code?: string }) => seen.push(`error:${err.code ?? err.message}`));
  return seen;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await Bun.sleep(5);
  expect(check()).toBe(true);
};

describe("node-postgres's socket over Bun.connect", () => {
  it("sends what is written while connecting once connected, in order, and end() sends it all before closing", async () => {
    const received: Buffer[] = [];
    let serverSawEnd = false;
    const port = await serve((socket) => {
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      socket.on("end", () => {
        serverSawEnd = true;
        socket.end();
      });
    });
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    expect(stream.writable).toBe(true);
    expect(stream.write(Buffer.from("one,"))).toBe(true);
    stream.write(Buffer.from("two,"));
    let written = false;
    stream.write(Buffer.from("three"), () => {
      written = true;
    });
    stream.end();
    expect(stream.writable).toBe(false);
    await until(() => seen.includes("close") && serverSawEnd);
    expect(Buffer.concat(received).toString()).toBe("one,two,three");
    expect(written).toBe(true);
    expect(seen).toEqual(["connect", "close"]);
  });

  it("sends nothing while corked, then what was corked in one piece", async () => {
    const received: Buffer[] = [];
    const port = await serve((socket) => socket.on("data", (chunk: Buffer) => received.push(chunk)));
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect"));
    stream.cork();
    stream.write(Buffer.from("parse,"));
    stream.write(Buffer.from("bind,"));
    stream.write(Buffer.from("sync"));
    await Bun.sleep(50);
    expect(received.length).toBe(0);
    stream.uncork();
    await until(() => Buffer.concat(received).length === 15);
    expect(Buffer.concat(received).toString()).toBe("parse,bind,sync");
    stream.destroy();
    await until(() => seen.includes("close"));
  });

  it("keeps what the kernel does not take yet, answers false, and sends it all on drain", async () => {
    const received: Buffer[] = [];
    let peer: Socket | undefined;
    const port = await serve((socket) => {
      peer = socket;
      socket.pause(); // the server reads nothing until told: the socket's buffers fill
      socket.on("data", (chunk: Buffer) => received.push(chunk));
    });
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect") && peer !== undefined);
    // 32 MB in 1 MB pieces of different bytes: more than the kernel's buffers take at once.
    const sent = createHash("sha256");
    let answers = true;
    for (let i = 0; i < 32; i++) {
      const piece = Buffer.alloc(1024 * 1024, i);
      sent.update(piece);
      answers = stream.write(piece) && answers;
    }
    expect(answers).toBe(false);
    peer?.resume();
    await until(() => received.reduce((n, chunk) => n + chunk.length, 0) >= 32 * 1024 * 1024);
    const got = createHash("sha256");
    for (const chunk of received) got.update(chunk);
    expect(got.digest("hex")).toBe(sent.digest("hex"));
    expect(seen).toContain("drain");
    stream.destroy();
  });

  it("reports the server closing its side as end then close, and writes no more", async () => {
    const port = await serve((socket) => socket.end());
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("close"));
    expect(seen).toEqual(["connect", "end", "close"]);
    expect(stream.writable).toBe(false);
    let failed: (Error & { code?: string }) | null | undefined;
    expect(stream.write(Buffer.from("late"), (err) => (failed = err))).toBe(false);
    await until(() => failed !== undefined);
    expect(failed?.code).toBe("EPIPE");
  });

  it("reports a refused connection as one error with its code, then close", async () => {
    const port = await serve(() => {});
    await new Promise((done) => servers.pop()?.close(done)); // the port is free again: refused
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("close"));
    await Bun.sleep(20);
    expect(seen).toEqual(["error:ECONNREFUSED", "close"]);
  });

  it("destroy(err) reports that error once, then close, and the server sees the connection go", async () => {
    const { port, serverClosed } = await serveWatchingClose();
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect"));
    stream.destroy(Object.assign(new Error("timeout expired"), { code: "ETIMEOUT" }));
    stream.destroy(new Error("twice"));
    await until(() => seen.includes("close") && serverClosed());
    await Bun.sleep(20);
    expect(seen).toEqual(["connect", "error:ETIMEOUT", "close"]);
  });

  /** A protocol message: its type, its length, its body. */
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeUInt32BE(4 + body.length, 1);
    return Buffer.concat([head, body]);
  };
  const notice = message("N", Buffer.from("SWARNING\0Mthere is already a transaction in progress\0\0"));
  const beginAnswers = Buffer.concat([notice, message("C", Buffer.from("BEGIN\0")), message("Z", Buffer.from("T"))]);
  const statementAnswer = Buffer.concat([message("C", Buffer.from("SELECT 1\0")), message("Z", Buffer.from("T"))]);

  /** Connects to `port`, asks for BEGIN with the next write, and writes "statement". */
  const beginThenStatement = async (port: number) => {
    const stream = new BunSocketStream();
    const seen = events(stream);
    const data: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => data.push(chunk));
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect"));
    stream.beginWithNext();
    stream.write(Buffer.from("statement"));
    return { stream, seen, data };
  };

  it("sends BEGIN ahead of the next write and keeps its answers from pg, even when they come a byte at a time", async () => {
    const received: Buffer[] = [];
    const port = await serve((socket) => {
      socket.setNoDelay(true);
      socket.once("data", async () => {
        // The BEGIN's answers and the statement's, a byte at a time (each its own data event).
        for (const byte of Buffer.concat([beginAnswers, statementAnswer])) {
          socket.write(Buffer.from([byte]));
          await Bun.sleep(1);
        }
      });
      socket.on("data", (chunk: Buffer) => received.push(chunk));
    });
    const { stream, data } = await beginThenStatement(port);
    await until(() => Buffer.concat(data).length >= notice.length + statementAnswer.length);
    await Bun.sleep(20);
    // The notice is pg's to see; the BEGIN's own answers are not.
    expect(Buffer.concat(data)).toEqual(Buffer.concat([notice, statementAnswer]));
    expect(Buffer.concat(received)).toEqual(Buffer.concat([message("Q", Buffer.from("BEGIN\0")), Buffer.from("statement")]));
    // Once: the write after it goes alone.
    stream.write(Buffer.from("next"));
    await until(() => Buffer.concat(received).toString().endsWith("statementnext"));
    stream.destroy();
  });

  it("a refused BEGIN ends the connection with its error: the statement behind it is not answered as if in a transaction", async () => {
    const port = await serve((socket) => {
      socket.on("error", () => {});
      socket.once("data", () => socket.write(Buffer.concat([message("E", Buffer.from("SERROR\0Mno\0\0")), message("Z", Buffer.from("I")), statementAnswer])));
    });
    const { seen, data } = await beginThenStatement(port);
    await until(() => seen.includes("close"));
    expect(seen).toEqual(["connect", "error:08P01", "close"]);
    expect(data).toEqual([]);
  });

  it("sends statements ahead in the order asked, with BEGIN, and keeps all their answers (rows included) from pg", async () => {
    const received: Buffer[] = [];
    // A statement's answers in the extended protocol: ParseComplete, BindComplete, RowDescription, a row, CommandComplete, ReadyForQuery.
    const rowsAnswer = Buffer.concat([
      message("1", Buffer.alloc(0)),
      message("2", Buffer.alloc(0)),
      message("T", Buffer.from([0, 0])),
      message("D", Buffer.from([0, 1, 0, 0, 0, 1, 0x31])),
      message("C", Buffer.from("SELECT 1\0")),
      message("Z", Buffer.from("T")),
    ]);
    const port = await serve((socket) => {
      socket.setNoDelay(true);
      socket.once("data", () => socket.write(Buffer.concat([beginAnswers, rowsAnswer, notice, rowsAnswer, statementAnswer])));
      socket.on("data", (chunk: Buffer) => received.push(chunk));
    });
    const stream = new BunSocketStream();
    const data: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => data.push(chunk));
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect"));
    stream.beginWithNext();
    stream.sendAhead(Buffer.from("locks;"), "locks");
    stream.sendAhead(Buffer.from("history;"), "history");
    stream.write(Buffer.from("statement"));
    await until(() => Buffer.concat(data).length >= 2 * notice.length + statementAnswer.length);
    await Bun.sleep(20);
    expect(Buffer.concat(received).toString()).toBe(`${message("Q", Buffer.from("BEGIN\0")).toString()}locks;history;statement`);
    // The notices (BEGIN's and the one between the statements) are pg's; nothing else of theirs is.
    expect(Buffer.concat(data)).toEqual(Buffer.concat([notice, notice, statementAnswer]));
    stream.destroy();
  });

  it("a statement sent ahead and refused ends the connection with the server's SQLSTATE as its code", async () => {
    const port = await serve((socket) => {
      socket.on("error", () => {});
      socket.once("data", () =>
        socket.write(Buffer.concat([message("E", Buffer.from("SERROR\0C40P01\0Mdeadlock detected\0\0")), message("Z", Buffer.from("E")), statementAnswer])),
      );
    });
    const stream = new BunSocketStream();
    const seen = events(stream);
    const errors: Error[] = [];
    stream.on("error", (err: Error) => errors.push(err));
    const data: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => data.push(chunk));
    stream.connect(port, "127.0.0.1");
    await until(() => seen.includes("connect"));
    stream.sendAhead(Buffer.from("locks;"), "the locks");
    stream.write(Buffer.from("statement"));
    await until(() => seen.includes("close"));
    expect(seen).toEqual(["connect", "error:40P01", "close"]);
    expect(errors[0].message).toBe("the locks refused: deadlock detected");
    expect(data).toEqual([]);
  });

  it("destroyed while connecting: no connect, one close, and the connection made is dropped", async () => {
    const { port, serverClosed } = await serveWatchingClose();
    const stream = new BunSocketStream();
    const seen = events(stream);
    stream.connect(port, "127.0.0.1");
    stream.destroy();
    await until(serverClosed);
    await Bun.sleep(20);
    expect(seen).toEqual(["close"]);
  });
});
