module.exports = async function teardown() {
  globalThis.functionInvocationServer?.close();
  await globalThis.stackFunctions?.stop();
  await globalThis.embeddedStack?.stop();
};
