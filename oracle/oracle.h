// The specification oracle: validation (three-valued), static shape inference and evaluation.
//
// Validation returns every rule the case breaks; the expectation is derived from them:
//   any must_reject rule  -> must_reject (the first one is the verdict's rule),
//   else any unspecified  -> unspecified,
//   else                  -> valid, with the output shape.
// Malformed cases (negative dims, wrong byte counts, unrepresentable sizes, missing inputs)
// give an absl::Status error whose message starts with a `case.*` rule id. Nothing here throws
// or aborts, for any input.
//
// Example:
//   absl::StatusOr<Expectation> e = Evaluate(c);
//   if (e.ok() && e->kind == ExpectationKind::kValid) Use(*e->output);
#ifndef DMCONF_ORACLE_ORACLE_H_
#define DMCONF_ORACLE_ORACLE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/op_case.h"
#include "oracle/rules.h"
#include "oracle/tensor.h"

namespace dmconf {

enum class ExpectationKind : uint8_t { kValid, kMustReject, kUnspecified };
absl::string_view ExpectationKindName(ExpectationKind k);  // "valid", "must_reject", "unspecified"

// One broken rule and the message that explains it ("s2b.block_shape.divides: ...").
struct Violation {
  const Rule* rule;
  std::string message;
};

// What validation read from a case's attributes and integer inputs, handed to evaluation so
// that it parses and decides nothing again (as the TOSA reference model's eval() uses what its
// checks stored). Meaningful for the op of the case once its validation found it valid.
struct ParsedCase {
  // SpaceToDepth / DepthToSpace: block_size (absent: the default 1, ERRATA E10) and mode.
  int64_t block_size = 1;
  DepthMode mode = DepthMode::kBlocksFirst;
  // SpaceToBatch / BatchToSpace: block_shape, pads (crops) begin and end, as int64.
  std::array<std::vector<int64_t>, 3> block_inputs;
  // ExtractImagePatches, per spatial axis (rows, cols), ERRATA E8: input size, patch size,
  // stride, rate, effective patch size, output size and padding before; and auto_pad.
  std::array<int64_t, 2> in{}, size{}, stride{}, rate{}, eff{}, out{}, pad_begin{};
  AutoPad auto_pad = AutoPad::kValid;
};

// The reshape and transpose of SpaceToDepth-1 / DepthToSpace-1 ("Detailed description"):
// x' = reshape(data, split), x'' = transpose(x', perm), output = reshape(x'', output shape).
// For a valid case's data shape, block size and mode; the evaluation computes with it, and
// the diagnosis fits wrong outputs against it (harness/compare/depth_fit.h).
struct DepthLayout {
  Shape split;
  std::vector<int> perm;
};
DepthLayout SpaceToDepthLayout(const Shape& data, int64_t block_size, DepthMode mode);
DepthLayout DepthToSpaceLayout(const Shape& data, int64_t block_size, DepthMode mode);

struct Validation {
  std::vector<Violation> violations;  // every broken rule found, must_reject ones first
  Shape output_shape;                 // set when no must_reject rule fires and it is defined
  ElementType output_type = ElementType::kF32;
  ParsedCase parsed;  // what the checks read, for evaluation

  ExpectationKind kind() const;
  // The deciding violation (nullptr when valid).
  const Violation* deciding() const;
};

struct Expectation {
  ExpectationKind kind = ExpectationKind::kValid;
  const Rule* rule = nullptr;    // deciding rule for must_reject / unspecified
  std::string message;           // its message
  Shape output_shape;            // valid: the output shape
  std::optional<Tensor> output;  // valid and evaluated: the output tensor
};

struct EvalOptions {
  // Evaluation refuses (rule `case.output.too_large`) to build an output, or an intermediate,
  // larger than this many bytes.
  int64_t max_bytes = kMaxTensorBytes;
  // When set, the output tensor takes its bytes from *output_storage (moved out, left empty)
  // instead of a fresh zero-filled allocation; the content is not cleared first, since every
  // evaluation writes every output element. Lets a caller that evaluates many cases (a
  // benchmark, a long sweep) reuse one buffer: move e->output->bytes back after use.
  //   std::vector<uint8_t> storage;
  //   EvalOptions o; o.output_storage = &storage;
  //   e = Evaluate(c, o); ...; storage = std::move(e->output->bytes);
  std::vector<uint8_t>* output_storage = nullptr;
  // Threads the evaluation may use (1: the calling thread only). Large copies (1 MiB or more)
  // are split between them; the output is bit-identical for every count. Values below 1 count
  // as 1, values above kMaxEvalThreads as kMaxEvalThreads.
  //   EvalOptions o; o.threads = 2;
  int threads = 1;
  // False: the expectation without its output tensor (the kind, deciding rule, message and
  // output shape), for a case held without its data bytes; data.bytes are neither read nor
  // checked against the shape, and `output` stays empty.
  bool with_output = true;
};

// The most threads one evaluation starts (each is an OS thread started per large copy; more
// than this would only add start-up cost on any machine this suite targets).
inline constexpr int kMaxEvalThreads = 64;

// Static shape inference and every rule check; never reads data.bytes.
// Errors: malformed cases only (a `case.*` rule).
absl::StatusOr<Validation> Validate(const OpCase& c);

// Validate, then (for valid cases) evaluate the literal reshape-transpose-reshape formulas.
absl::StatusOr<Expectation> Evaluate(const OpCase& c, const EvalOptions& options = {});

}  // namespace dmconf

#endif  // DMCONF_ORACLE_ORACLE_H_
