// Single-node ONNX models for the ONNX Runtime adapter, built with onnx-proto (the protobufjs
// classes of onnx.proto, npm): one node, typed and shaped input "x" and output "y".
// `node onnx_model.js write DIR` writes sample models for the C++ side's onnx::checker test.
'use strict';

const {onnx} = require('onnx-proto');

// OpenVINO element type -> ONNX TensorProto.DataType.
const ONNX_TYPES = {
  f32: onnx.TensorProto.DataType.FLOAT, u8: onnx.TensorProto.DataType.UINT8,
  i8: onnx.TensorProto.DataType.INT8, u16: onnx.TensorProto.DataType.UINT16,
  i16: onnx.TensorProto.DataType.INT16, i32: onnx.TensorProto.DataType.INT32,
  i64: onnx.TensorProto.DataType.INT64, boolean: onnx.TensorProto.DataType.BOOL,
  f16: onnx.TensorProto.DataType.FLOAT16, f64: onnx.TensorProto.DataType.DOUBLE,
  u32: onnx.TensorProto.DataType.UINT32, u64: onnx.TensorProto.DataType.UINT64,
  bf16: onnx.TensorProto.DataType.BFLOAT16,
};

function valueInfo(name, elemType, shape) {
  return {name, type: {tensorType: {elemType, shape: {dim: shape.map((d) => ({dimValue: d}))}}}};
}

function attribute(name, value) {
  if (typeof value === 'number') {
    return {name, type: onnx.AttributeProto.AttributeType.INT, i: value};
  }
  return {name, type: onnx.AttributeProto.AttributeType.STRING, s: Buffer.from(value, 'utf8')};
}

// opType with attributes {name: int | string}; input "x" of inShape, output "y" of outShape.
function singleNodeModel(opType, attributes, type, inShape, outShape, opset) {
  const elem = ONNX_TYPES[type];
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'dmconf',
    opsetImport: [{domain: '', version: opset}],
    graph: {
      name: 'dmconf',
      node: [{input: ['x'], output: ['y'], opType,
              attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v))}],
      input: [valueInfo('x', elem, inShape)],
      output: [valueInfo('y', elem, outShape)],
    },
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}

// The models the adapter writes for its three kinds of case, as files for onnx::checker.
function writeSamples(dir) {
  const fs = require('fs');
  const path = require('path');
  fs.mkdirSync(dir, {recursive: true});
  const samples = {
    d2s_dcr: singleNodeModel('DepthToSpace', {blocksize: 2, mode: 'DCR'}, 'f32', [1, 8, 2, 3],
                             [1, 2, 4, 6], 13),
    d2s_crd: singleNodeModel('DepthToSpace', {blocksize: 2, mode: 'CRD'}, 'f16', [1, 8, 2, 3],
                             [1, 2, 4, 6], 13),
    s2d: singleNodeModel('SpaceToDepth', {blocksize: 2}, 'u8', [1, 2, 4, 6], [1, 8, 2, 3], 13),
  };
  for (const [name, bytes] of Object.entries(samples)) {
    fs.writeFileSync(path.join(dir, `${name}.onnx`), bytes);
  }
}

if (require.main === module) {
  if (process.argv[2] !== 'write' || !process.argv[3]) {
    process.stderr.write('usage: node onnx_model.js write DIR\n');
    process.exit(2);
  }
  writeSamples(process.argv[3]);
}

module.exports = {singleNodeModel, ONNX_TYPES};
