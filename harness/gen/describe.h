// One-line descriptions of generated cases: a `dmconf eval` command that rebuilds the case's
// shapes and attributes (its data is the CLI's iota: the positional fill from 0, where the
// generator's starts at 1).
//
// Example:
//   ReproCommand(c)  // "dmconf eval --op SpaceToDepth --type f32 --shape 1,1,4,4
//                    //  --block-size 2 --mode blocks_first"
#ifndef DMCONF_HARNESS_GEN_DESCRIBE_H_
#define DMCONF_HARNESS_GEN_DESCRIBE_H_

#include <string>

#include "oracle/op_case.h"

namespace dmconf {

std::string ReproCommand(const OpCase& c);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_DESCRIBE_H_
