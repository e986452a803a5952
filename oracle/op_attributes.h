// The attribute bundle of a case: what a static case (OpCase, op_case.h) and a partial case
// (PartialCase, partial/partial_infer.h) share besides their op, data and integer inputs.
//
// It is one struct, OpAttributes, and both cases derive from it: `struct OpCase : OpAttributes`
// and `struct PartialCase : OpAttributes`. A base rather than a member keeps the attributes
// under their own names on the case (`c.block_size`, `c.auto_pad`, as the specification and the
// file formats name them), while a copy from one kind of case to the other is one assignment of
// the bundle, and a codec takes `const OpAttributes&` and so serves both kinds of case with one
// function. Attributes are kept as the user wrote them (mode and auto_pad as strings,
// block_size as an optional integer), so that validation can reject an unknown mode *by name*
// with a rule id. Every codec writes and reads the bundle in one function of its own (JSON
// files: harness/io/case_json.h; the worker wire: harness/isolation/wire.cc; the plugin ABI:
// harness/plugin/plugin_backend.cc; the subprocess protocol:
// harness/backends/subprocess/protocol.cc), so that an attribute added here is added everywhere
// at once.
//
// Example:
//   PartialCase p;  CopyAttributes(static_case, p);  // p.mode == static_case.mode, ...
#ifndef DMCONF_ORACLE_OP_ATTRIBUTES_H_
#define DMCONF_ORACLE_OP_ATTRIBUTES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dmconf {

struct OpAttributes {
  // DepthToSpace / SpaceToDepth. block_size absent means the spec default 1 (ERRATA E10).
  std::optional<int64_t> block_size;
  std::optional<std::string> mode;  // "blocks_first" / "depth_first" as written

  // ExtractImagePatches.
  std::vector<int64_t> sizes, strides, rates;
  std::optional<std::string> auto_pad;  // "valid" / "same_upper" / "same_lower" as written

  friend bool operator==(const OpAttributes&, const OpAttributes&) = default;
};

// Copies the attribute bundle of `from` into `to` (an OpCase or a PartialCase each).
inline void CopyAttributes(const OpAttributes& from, OpAttributes& to) { to = from; }

}  // namespace dmconf

#endif  // DMCONF_ORACLE_OP_ATTRIBUTES_H_
