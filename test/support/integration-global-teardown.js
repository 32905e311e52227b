module.exports = async function teardown() {
  await globalThis.embeddedStack?.stop();
};
