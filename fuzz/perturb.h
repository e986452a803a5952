// Raw perturbations for the fuzz targets: after a structured case is built, the fuzzer may
// overwrite one field with an arbitrary value (any int64, any string), so the targets also
// reach cases no builder makes.
#ifndef DMCONF_FUZZ_PERTURB_H_
#define DMCONF_FUZZ_PERTURB_H_

#include <fuzzer/FuzzedDataProvider.h>

#include "oracle/op_case.h"

namespace dmconf {

// Overwrites 0..3 fields of c with raw values from fdp. Data bytes are rebuilt (positional)
// when the new shape has at most max_elements elements, else left as they are (a malformed
// case the oracle must reject by name).
void Perturb(FuzzedDataProvider& fdp, OpCase* c, int64_t max_elements = 256);

// Traps (abort) with a message on stderr: a property of the target failed.
[[noreturn]] void FuzzFail(const OpCase& c, const char* what);

}  // namespace dmconf

#endif  // DMCONF_FUZZ_PERTURB_H_
