// Runs in a fresh Node process, as Lambda's runtime would: loads one function bundle, calls
// its handler with the API Gateway event read from stdin, and prints the handler's response.
const bundlePath = process.argv[2];
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
});
process.stdin.on('end', async () => {
  const { handler } = require(bundlePath);
  const response = await handler(JSON.parse(input), {
    awsRequestId: 'bundled-test',
    functionName: 'bundled',
  });
  process.stdout.write(JSON.stringify(response));
});
