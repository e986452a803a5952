#!/usr/bin/env node
// Entry point of the Node subprocess adapters: `node adapter.js onnxruntime|tfjs`.
'use strict';

const {serve} = require('./protocol');

const which = process.argv[2];
const modules = {onnxruntime: './onnxruntime_adapter', tfjs: './tfjs_adapter'};
if (!modules[which]) {
  process.stderr.write(`usage: node adapter.js ${Object.keys(modules).join('|')}\n`);
  process.exit(2);
}
serve(require(modules[which]));
