// ONNX Runtime (onnxruntime-node, CPU) behind dmconf-subprocess/1: DepthToSpace (DCR and CRD)
// and SpaceToDepth (blocks_first only, as ONNX has no mode), 4-D NCHW, the element types ORT
// implements for these ops. One single-node model per case, built by onnx_model.js (onnx-proto).
'use strict';

const ort = require('onnxruntime-node');
const {singleNodeModel} = require('./onnx_model');
const {tensorBytes, output, unsupported, rejected} = require('./protocol');

// OpenVINO type -> [ORT tensor type, typed-array constructor].
const TYPES = {
  f32: ['float32', Float32Array], f64: ['float64', Float64Array], f16: ['float16', Uint16Array],
  u8: ['uint8', Uint8Array], i8: ['int8', Int8Array],
};
const MODES = {blocks_first: 'DCR', depth_first: 'CRD'};

const capabilities = [
  {op: 'DepthToSpace', element_types: Object.keys(TYPES), min_rank: 4, max_rank: 4,
   modes: ['blocks_first', 'depth_first'], notes: 'ONNX DepthToSpace-13, DCR / CRD; NCHW'},
  {op: 'SpaceToDepth', element_types: Object.keys(TYPES), min_rank: 4, max_rank: 4,
   modes: ['blocks_first'], notes: 'ONNX SpaceToDepth-13 (blocks_first only); NCHW'},
];

function typedView(Ctor, bytes) {
  const copy = new Uint8Array(bytes.length);  // aligned copy
  copy.set(bytes);
  return new Ctor(copy.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
}

async function run(req) {
  const data = req.inputs[0];
  const attrs = req.attributes || {};
  const cap = capabilities.find((c) => c.op === req.op);
  if (!cap) return unsupported(`ONNX Runtime adapter has no ${req.op}`);
  if (!TYPES[data.type]) return unsupported(`element type ${data.type} has no ORT kernel here`);
  if (data.shape.length !== 4) return unsupported('ORT implements these ops for 4-D only');
  if (attrs.mode === undefined) {
    return unsupported('no mode: ONNX would apply its default (DCR), OpenVINO requires a mode');
  }
  const onnxAttrs = {blocksize: attrs.block_size === undefined ? 1 : attrs.block_size};
  if (req.op === 'DepthToSpace') {
    // An unknown OpenVINO mode is passed through by name for ORT to refuse.
    onnxAttrs.mode = MODES[attrs.mode] || attrs.mode;
  } else if (attrs.mode !== 'blocks_first') {
    return unsupported(`ONNX SpaceToDepth has no mode; '${attrs.mode}' cannot be expressed`);
  }
  const [n, c, h, w] = data.shape;
  const b = onnxAttrs.blocksize;
  // Declared output shape (ORT checks the node's own inference against the data at run time).
  const outShape = req.op === 'DepthToSpace' ?
      [n, b > 0 ? Math.floor(c / (b * b)) : c, h * b, w * b] :
      [n, c * b * b, b > 0 ? Math.floor(h / b) : h, b > 0 ? Math.floor(w / b) : w];
  const model = singleNodeModel(req.op, onnxAttrs, data.type, data.shape,
                                outShape.map((d) => Math.max(d, 0)), 13);
  let session;
  try {
    session = await ort.InferenceSession.create(model, {logSeverityLevel: 4});
  } catch (e) {
    return rejected(`InferenceSession.create: ${e.message}`);
  }
  const [ortType, Ctor] = TYPES[data.type];
  const x = new ort.Tensor(ortType, typedView(Ctor, tensorBytes(data)), data.shape);
  const result = await session.run({x});
  const y = result.y;
  const bytes = new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength);
  return output(data.type, Array.from(y.dims), bytes);
}

module.exports = {name: 'onnxruntime', version: require('onnxruntime-node/package.json').version,
                  capabilities, run};
