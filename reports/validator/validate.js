#!/usr/bin/env node
// Validates JSON documents against a JSON Schema with Ajv (draft-07, all errors).
//   node reports/validator/validate.js SCHEMA FILE...
// Exit status: 0 every file valid, 1 a file is invalid, 2 usage or I/O error.
'use strict';
const fs = require('fs');
const path = require('path');

let Ajv;
try {
  Ajv = require(path.join(__dirname, 'node_modules', 'ajv'));
} catch (e) {
  console.error('validate.js: Ajv is not installed; run scripts/install-report-validator.sh');
  process.exit(2);
}

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error('usage: validate.js SCHEMA FILE...');
  process.exit(2);
}
const ajv = new Ajv({allErrors: true, strict: true});
let validate;
try {
  validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
} catch (e) {
  console.error(`validate.js: ${schemaPath}: ${e.message}`);
  process.exit(2);
}
let status = 0;
for (const f of files) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch (e) {
    console.error(`validate.js: ${f}: ${e.message}`);
    process.exit(2);
  }
  if (validate(doc)) {
    console.log(`${f}: valid`);
  } else {
    status = 1;
    for (const err of validate.errors.slice(0, 20)) {
      console.log(`${f}: ${err.instancePath || '/'} ${err.message}`);
    }
  }
}
process.exit(status);
