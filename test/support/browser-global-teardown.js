/** Stops the browser tier's `npm start` as Ctrl-C would, and kills its group if it lingers. */
module.exports = async function teardown() {
  const server = globalThis.consoleTestServer;
  if (!server) return;
  server.signalGroup('SIGINT');
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 10_000);
  });
  const ended = await Promise.race([server.exited, timeout]);
  clearTimeout(timer);
  if (ended === 'timeout') await server.kill();
};
