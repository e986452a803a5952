// dmconf-subprocess/1 for Node adapters: newline-delimited JSON on stdin/stdout
// (docs/subprocess-protocol.md). serve(backend) answers hello, run and shutdown requests one at a
// time; a backend is {name, version, capabilities, run(request) -> Promise<outcome>}.
'use strict';

const PROTOCOL = 'dmconf-subprocess/1';

// Bytes of a tensor of the request (base64 of the packed little-endian bytes).
function tensorBytes(t) {
  return Buffer.from(t.data, 'base64');
}

function output(type, shape, bytes) {
  return {outcome: 'output', output: {type, shape, data: Buffer.from(bytes).toString('base64')}};
}

function rejected(message) {
  return {outcome: 'rejected', message: String(message)};
}

function unsupported(message) {
  return {outcome: 'unsupported', message: String(message)};
}

function serve(backend) {
  const readline = require('readline');
  const rl = readline.createInterface({input: process.stdin, terminal: false});
  const queue = [];
  let busy = false;
  const write = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`dmconf adapter: ignoring a line that is not JSON: ${e.message}\n`);
      return;
    }
    if (req.request === 'hello') {
      write({protocol: PROTOCOL, name: backend.name, version: backend.version,
             capabilities: backend.capabilities});
    } else if (req.request === 'shutdown') {
      process.exit(0);
    } else if (req.request === 'run') {
      let out;
      try {
        out = await backend.run(req);
      } catch (e) {
        out = rejected(e && e.message ? e.message : e);
      }
      write(Object.assign({id: req.id}, out));
    } else {
      write({id: req.id, outcome: 'unsupported', message: `unknown request '${req.request}'`});
    }
  }

  async function pump() {
    if (busy) return;
    busy = true;
    while (queue.length > 0) await handle(queue.shift());
    busy = false;
  }
  rl.on('line', (line) => {
    queue.push(line);
    pump();
  });
  rl.on('close', () => {
    const wait = () => (busy || queue.length > 0 ? setTimeout(wait, 10) : process.exit(0));
    wait();
  });
}

module.exports = {PROTOCOL, serve, tensorBytes, output, rejected, unsupported};
