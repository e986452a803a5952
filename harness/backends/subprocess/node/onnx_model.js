// A minimal ONNX ModelProto encoder: one node, typed and shaped input and output. Field numbers
// are those of onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto, ValueInfoProto,
// TypeProto, TensorShapeProto); no protobuf library is needed for a model this small.
'use strict';

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return Buffer.from(out);
}

const key = (field, wire) => varint((field << 3) | wire);
const intField = (field, n) => Buffer.concat([key(field, 0), varint(n)]);
function bytesField(field, payload) {
  const b = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
  return Buffer.concat([key(field, 2), varint(b.length), b]);
}

// ONNX TensorProto.DataType numbers.
const ONNX_TYPES = {f32: 1, u8: 2, i8: 3, u16: 4, i16: 5, i32: 6, i64: 7, boolean: 9, f16: 10,
                    f64: 11, u32: 12, u64: 13, bf16: 16};

function valueInfo(name, elemType, shape) {
  const dims = shape.map((d) => bytesField(1, intField(1, d)));  // Dimension.dim_value
  const tensorType = Buffer.concat([intField(1, elemType), bytesField(2, Buffer.concat(dims))]);
  return Buffer.concat([bytesField(1, name), bytesField(2, bytesField(1, tensorType))]);
}

function attribute(name, value) {
  if (typeof value === 'number') {
    return Buffer.concat([bytesField(1, name), intField(3, value), intField(20, 2)]);  // INT
  }
  return Buffer.concat([bytesField(1, name), bytesField(4, value), intField(20, 3)]);  // STRING
}

// opType with attributes {name: int | string}; input "x" of inShape, output "y" of outShape.
function singleNodeModel(opType, attributes, type, inShape, outShape, opset) {
  const elem = ONNX_TYPES[type];
  const attrs = Object.entries(attributes).map(([k, v]) => bytesField(5, attribute(k, v)));
  const node = Buffer.concat([bytesField(1, 'x'), bytesField(2, 'y'), bytesField(4, opType),
                              ...attrs]);
  const graph = Buffer.concat([bytesField(1, node), bytesField(2, 'dmconf'),
                               bytesField(11, valueInfo('x', elem, inShape)),
                               bytesField(12, valueInfo('y', elem, outShape))]);
  const opsetId = Buffer.concat([bytesField(1, ''), intField(2, opset)]);
  return Buffer.concat([intField(1, 8), bytesField(8, opsetId), bytesField(7, graph)]);
}

module.exports = {singleNodeModel, ONNX_TYPES};
