// The second input form of the structure-aware fuzz targets: a whole OpCase spelled out field
// by field (op, data type and shape, integer inputs, attributes), so any case, including every
// golden vector, is a fuzz input and can seed the corpora.
//
// An input in this form starts with the four bytes "DMC1"; the rest is read through
// FuzzChooser, like the builders' inputs. Every other input is a sequence of builder choices
// (GenerateCase), as before. Data values are not carried: a decoded case holds positional data
// (PositionalTensor), optionally one byte too many or too few, or no bytes at all.
//
// Example (a target):
//   const bool literal = StripLiteralMagic(&data, &size);
//   FuzzedDataProvider fdp(data, size);
//   FuzzChooser ch(&fdp);
//   GeneratedCase g = literal ? LiteralCase(ch) : GenerateCase(ch, o);
//   // a literal case promises nothing: treat it like a perturbed case
// Example (a seed):
//   absl::StatusOr<std::vector<uint8_t>> in = EncodeLiteralInput(vector.c);
#ifndef DMCONF_FUZZ_LITERAL_CASE_H_
#define DMCONF_FUZZ_LITERAL_CASE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/gen/chooser.h"
#include "harness/gen/generate.h"
#include "oracle/op_case.h"

namespace dmconf {

inline constexpr char kLiteralMagic[4] = {'D', 'M', 'C', '1'};
// Positional data is built for cases of at most this many elements; larger ones get the
// shape only (no bytes). Cases above it are not encoded.
inline constexpr int64_t kLiteralMaxElements = int64_t{1} << 15;

// True, and the magic skipped, when the input is in the literal form.
bool StripLiteralMagic(const uint8_t** data, size_t* size);

// Decodes a literal case from the rest of the input. with_data = false: no data bytes (shape
// and type only, for shape-inference targets). The lane is kValid, but a literal case is not
// built to be valid: targets must not hold it to any builder promise.
GeneratedCase LiteralCase(Chooser& ch, bool with_data = true);

// The literal input (magic included) that decodes to c. Checked by decoding: errors name what
// the form cannot express ("fuzz.literal: ...": more than 10 dims, an integer input of more
// than 3 dims or dims above 16, data bytes other than the positional size +-1 or none, more
// than kLiteralMaxElements elements with data).
absl::StatusOr<std::vector<uint8_t>> EncodeLiteralInput(const OpCase& c);

// What LiteralCase keeps of a case: op, types, shapes, data byte count, integer input bits,
// attributes (not data values, id or origin).
bool SameLiteralCase(const OpCase& a, const OpCase& b);

}  // namespace dmconf

#endif  // DMCONF_FUZZ_LITERAL_CASE_H_
