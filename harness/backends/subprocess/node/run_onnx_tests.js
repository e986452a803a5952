// Runs ONNX node-test folders (`dmconf vectors export-onnx` output, or ONNX's own) with
// onnxruntime-node and compares every output bit for bit with test_data_set_0/output_0.pb.
//   node run_onnx_tests.js [--each] DIR
// A folder whose model ONNX Runtime has no kernel for (or whose element type onnxruntime-node
// cannot hold: bfloat16) is "unsupported"; an f16 output that differs from the expected one
// only in NaN bits is "known (F8)" (docs/findings.md, F8: ONNX Runtime changes f16 NaN bits).
// Prints one line per failing or unsupported folder (--each: per folder, "NAME: pass" too, and
// "NAME: begin" before it runs, so that a runtime that dies or hangs is known to have been in
// NAME) and "run_onnx_tests: N passed, N failed, N unsupported, N known (F8)"; exits 1 when one
// failed. A file that cannot be read or decoded fails its folder, naming the file
// ("fail: model.onnx: ..."); it never ends the run.
'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {onnx} = require('onnx-proto');

const T = onnx.TensorProto.DataType;
// ONNX data type -> [ORT tensor type, typed-array constructor].
const TYPES = {
  [T.FLOAT]: ['float32', Float32Array], [T.DOUBLE]: ['float64', Float64Array],
  [T.FLOAT16]: ['float16', Uint16Array], [T.UINT8]: ['uint8', Uint8Array],
  [T.INT8]: ['int8', Int8Array], [T.UINT16]: ['uint16', Uint16Array],
  [T.INT16]: ['int16', Int16Array], [T.UINT32]: ['uint32', Uint32Array],
  [T.INT32]: ['int32', Int32Array], [T.UINT64]: ['uint64', BigUint64Array],
  [T.INT64]: ['int64', BigInt64Array], [T.BOOL]: ['bool', Uint8Array],
};

// f(), an error naming the file `rel` of the test folder it was reading or decoding.
function naming(rel, f) {
  try {
    return f();
  } catch (e) {
    throw new Error(`${rel}: ${String(e.message).split('\n')[0]}`);
  }
}

function readTensor(dir, rel) {
  return naming(rel, () => onnx.TensorProto.decode(fs.readFileSync(path.join(dir, rel))));
}

function ortTensor(p) {
  const [type, Ctor] = TYPES[p.dataType];
  const raw = p.rawData;
  const copy = new Uint8Array(raw.length);  // aligned copy
  copy.set(raw);
  const dims = p.dims.map(Number);
  return new ort.Tensor(type, new Ctor(copy.buffer, 0, raw.length / Ctor.BYTES_PER_ELEMENT), dims);
}

function bytesOf(t) {
  return Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}

function isF16Nan(b, i) {
  const bits = b.readUInt16LE(i);
  return (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0;
}

// 'pass', 'fail: ...', 'unsupported: ...' or 'known (F8)'.
async function runFolder(dir) {
  const modelBytes = naming('model.onnx', () => fs.readFileSync(path.join(dir, 'model.onnx')));
  const graph = naming('model.onnx', () => onnx.ModelProto.decode(modelBytes)).graph;
  const input = readTensor(dir, path.join('test_data_set_0', 'input_0.pb'));
  const expected = readTensor(dir, path.join('test_data_set_0', 'output_0.pb'));
  if (!TYPES[input.dataType]) {
    return `unsupported: onnxruntime-node has no tensor type ${input.dataType}`;
  }
  let result;
  try {
    const session = await ort.InferenceSession.create(modelBytes, {logSeverityLevel: 4});
    result = await session.run({[graph.input[0].name]: ortTensor(input)});
  } catch (e) {
    const m = String(e.message).split('\n')[0];
    if (/NOT_IMPLEMENTED|Could not find an implementation/.test(m)) return `unsupported: ${m}`;
    return `fail: ${m}`;
  }
  const y = result[graph.output[0].name];
  const dims = expected.dims.map(Number);
  if (JSON.stringify(Array.from(y.dims)) !== JSON.stringify(dims)) {
    return `fail: shape [${y.dims}], expected [${dims}]`;
  }
  const got = bytesOf(y);
  const want = Buffer.from(expected.rawData);
  if (got.equals(want)) return 'pass';
  if (expected.dataType === T.FLOAT16 && got.length === want.length) {
    let onlyNans = true;
    for (let i = 0; i < got.length && onlyNans; i += 2) {
      if (got.readUInt16LE(i) !== want.readUInt16LE(i)) {
        onlyNans = isF16Nan(got, i) && isF16Nan(want, i);
      }
    }
    if (onlyNans) return 'known (F8)';
  }
  let first = 0;
  while (first < got.length && got[first] === want[first]) ++first;
  return `fail: output bytes differ from byte ${first} on`;
}

async function main() {
  const args = process.argv.slice(2);
  const each = args[0] === '--each';
  const root = each ? args[1] : args[0];
  if (!root) {
    process.stderr.write('usage: node run_onnx_tests.js [--each] DIR\n');
    process.exit(2);
  }
  const folders = fs.readdirSync(root)
                      .filter((n) => fs.existsSync(path.join(root, n, 'model.onnx')))
                      .sort();
  const counts = {passed: 0, failed: 0, unsupported: 0, known: 0};
  for (const name of folders) {
    if (each) console.log(`${name}: begin`);
    let verdict;
    try {
      verdict = await runFolder(path.join(root, name));
    } catch (e) {
      verdict = `fail: ${String(e.message).split('\n')[0]}`;
    }
    if (verdict === 'pass') {
      ++counts.passed;
      if (each) console.log(`${name}: pass`);
    } else if (verdict === 'known (F8)') {
      ++counts.known;
      console.log(`${name}: ${verdict}`);
    } else if (verdict.startsWith('unsupported')) {
      ++counts.unsupported;
      console.log(`${name}: ${verdict}`);
    } else {
      ++counts.failed;
      console.log(`${name}: ${verdict}`);
    }
  }
  console.log(`run_onnx_tests: ${counts.passed} passed, ${counts.failed} failed, ` +
              `${counts.unsupported} unsupported, ${counts.known} known (F8)`);
  process.exit(counts.failed > 0 ? 1 : 0);
}

main();
