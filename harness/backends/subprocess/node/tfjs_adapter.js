// TensorFlow.js (tfjs-core + tfjs-backend-cpu) behind dmconf-subprocess/1.
//   SpaceToBatch / BatchToSpace: tf.spaceToBatchND / tf.batchToSpaceND applied directly to the
//     NCHW tensor with blockShape = block_shape[1:] and paddings / crops = pads[1:] (the batch
//     entries must be 1 / 0); any rank >= 2; float32, int32, bool.
//   DepthToSpace: tf.depthToSpace, blocks_first, NHWC and float32 only on the CPU backend; the
//     adapter transposes NCHW -> NHWC and back itself (plain index loops, not tfjs ops).
'use strict';

const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
const {tensorBytes, output, unsupported, rejected} = require('./protocol');

tf.env().set('IS_TEST', true);  // no "running in Node.js" banner on stderr

// OpenVINO type -> [tfjs dtype, typed-array constructor of the wire bytes].
const TYPES = {f32: ['float32', Float32Array], i32: ['int32', Int32Array],
               boolean: ['bool', Uint8Array]};

const capabilities = [
  {op: 'SpaceToBatch', element_types: Object.keys(TYPES), min_rank: 2, max_rank: 64, modes: [],
   notes: 'applied to NCHW directly; block_shape[0] = 1 and pads[0] = 0'},
  {op: 'BatchToSpace', element_types: Object.keys(TYPES), min_rank: 2, max_rank: 64, modes: [],
   notes: 'applied to NCHW directly; block_shape[0] = 1 and crops[0] = 0'},
  {op: 'DepthToSpace', element_types: ['f32'], min_rank: 4, max_rank: 4, modes: ['blocks_first'],
   notes: 'NHWC on the CPU backend: transposed by the adapter'},
];

function typedView(Ctor, bytes) {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Ctor(copy.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
}

function bytesOf(dtype, values) {
  if (dtype === 'bool') return Uint8Array.from(values, (v) => (v ? 1 : 0));
  const arr = dtype === 'float32' ? Float32Array.from(values) : Int32Array.from(values);
  return new Uint8Array(arr.buffer);
}

// Generic 4-D transpose of a typed array: out[perm-ordered index] = in[index].
function transpose4(src, shape, perm) {
  const outShape = perm.map((p) => shape[p]);
  const stride = [shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3], 1];
  const dst = new src.constructor(src.length);
  let k = 0;
  for (let a = 0; a < outShape[0]; ++a)
    for (let b = 0; b < outShape[1]; ++b)
      for (let c = 0; c < outShape[2]; ++c)
        for (let d = 0; d < outShape[3]; ++d) {
          const idx = [a, b, c, d];
          let off = 0;
          for (let i = 0; i < 4; ++i) off += idx[i] * stride[perm[i]];
          dst[k++] = src[off];
        }
  return {data: dst, shape: outShape};
}

async function run(req) {
  const data = req.inputs[0];
  const attrs = req.attributes || {};
  const cap = capabilities.find((c) => c.op === req.op);
  if (!cap) return unsupported(`tfjs adapter has no ${req.op}`);
  if (!cap.element_types.includes(data.type)) {
    return unsupported(`element type ${data.type} is not a tfjs dtype for ${req.op}`);
  }
  const [dtype, Ctor] = TYPES[data.type];
  const values = typedView(Ctor, tensorBytes(data));
  if (req.op === 'DepthToSpace') {
    if (data.shape.length !== 4) return unsupported('tf.depthToSpace is 4-D');
    if (attrs.mode !== 'blocks_first') {
      return unsupported(`tf.depthToSpace is blocks_first only (mode '${attrs.mode}')`);
    }
    const nhwc = transpose4(values, data.shape, [0, 2, 3, 1]);
    const b = attrs.block_size === undefined ? 1 : attrs.block_size;
    const y = tf.depthToSpace(tf.tensor(nhwc.data, nhwc.shape, dtype), b, 'NHWC');
    const nchw = transpose4(Float32Array.from(await y.data()), y.shape, [0, 3, 1, 2]);
    return output(data.type, nchw.shape, new Uint8Array(nchw.data.buffer));
  }
  if (req.inputs.length !== 4) return unsupported('SpaceToBatch / BatchToSpace need 4 inputs');
  const [block, begin, end] = req.inputs.slice(1).map((t) => t.values);
  if (!block || !begin || !end) return unsupported('integer inputs without values');
  const rank = data.shape.length;
  if (block.length !== rank || begin.length !== rank || end.length !== rank) {
    return unsupported('block_shape / pads / crops length differs from the rank');
  }
  if (block[0] !== 1 || begin[0] !== 0 || end[0] !== 0) {
    return unsupported('tfjs cannot block, pad or crop the batch axis');
  }
  const x = tf.tensor(dtype === 'bool' ? Array.from(values, (v) => v !== 0) : values, data.shape,
                      dtype);
  const pairs = begin.slice(1).map((p, i) => [p, end[i + 1]]);
  let y;
  try {
    y = req.op === 'SpaceToBatch' ? tf.spaceToBatchND(x, block.slice(1), pairs) :
                                    tf.batchToSpaceND(x, block.slice(1), pairs);
  } catch (e) {
    return rejected(e.message);
  }
  return output(data.type, y.shape, bytesOf(dtype, await y.data()));
}

module.exports = {name: 'tfjs', version: require('@tensorflow/tfjs-core/package.json').version,
                  capabilities, run};
