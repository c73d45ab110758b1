// A port for a test server, asked of the system rather than drawn at random: a random port in
// 20,000-50,000 can be the source port of one of the suite's many open PostgreSQL connections
// (Linux hands those out from 32,768 up), and a server started on it stops with "already in use".

/** A port free now (the system's choice), for a server the test starts on it next. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}
