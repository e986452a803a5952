// The attribute bundle of a case: what a static case (OpCase, op_case.h) and a partial case
// (PartialCase, partial/partial_infer.h) share besides their op, data and integer inputs.
// Both hold it under the same names:
//   block_size, mode               DepthToSpace / SpaceToDepth
//   sizes, strides, rates, auto_pad  ExtractImagePatches
// Every copy from one kind of case to the other goes through CopyAttributes, and every codec
// writes and reads the bundle in one function of its own, so that an attribute added here is
// added everywhere at once.
//
// Example:
//   PartialCase p;  CopyAttributes(static_case, p);  // p.mode == static_case.mode, ...
#ifndef DMCONF_ORACLE_OP_ATTRIBUTES_H_
#define DMCONF_ORACLE_OP_ATTRIBUTES_H_

namespace dmconf {

// Copies the attribute bundle of `from` into `to` (an OpCase or a PartialCase each).
template <typename To, typename From>
void CopyAttributes(const From& from, To& to) {
  to.block_size = from.block_size;
  to.mode = from.mode;
  to.sizes = from.sizes;
  to.strides = from.strides;
  to.rates = from.rates;
  to.auto_pad = from.auto_pad;
}

}  // namespace dmconf

#endif  // DMCONF_ORACLE_OP_ATTRIBUTES_H_
