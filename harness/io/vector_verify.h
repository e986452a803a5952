// Checks a vector's recorded expectation against the oracle: same kind, same deciding rule,
// and for valid cases a bit-identical output (type, shape and every element's bits).
//
// Example:
//   std::optional<std::string> why = OracleMismatch(*v);
//   if (why) std::cerr << v->c.id << ": " << *why << "\n";
#ifndef DMCONF_HARNESS_IO_VECTOR_VERIFY_H_
#define DMCONF_HARNESS_IO_VECTOR_VERIFY_H_

#include <optional>
#include <string>

#include "harness/io/vector_case.h"

namespace dmconf::io {

// std::nullopt when the oracle agrees with the file; else what differs (first element index
// and both values for outputs).
std::optional<std::string> OracleMismatch(const VectorCase& v);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_VECTOR_VERIFY_H_
