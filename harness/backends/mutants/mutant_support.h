// What every mutant is built from: the correct outcome (the oracle's output, or a refusal), and
// an outcome from a tensor or error. Shared by the mutant files; not for other users.
#ifndef DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANT_SUPPORT_H_
#define DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANT_SUPPORT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "harness/backends/mutants/mutants.h"

namespace dmconf {

RunOutcome CorrectOutcome(const OpCase& c);
RunOutcome OutcomeOf(absl::StatusOr<Tensor> t);

// The mutants of the pad/crop ops' layout (block_mutants.cc): each a bug the fitted diagnosis
// (harness/compare/block_fit.h) is measured on.
std::vector<MutantInfo> BlockLayoutMutants();
// The mutants of the patch gather (patch_mutants.cc), for harness/compare/patch_fit.h.
std::vector<MutantInfo> PatchGatherMutants();
// Bugs whose outputs look like other bugs on weak evidence (lookalike_mutants.cc), for the
// honesty of the diagnosis.
std::vector<MutantInfo> LookalikeMutants();
// Kernel bugs written from the specification alone, without the diagnosis in view
// (blind_mutants.cc): how the diagnosis does on bugs it was not tuned for.
std::vector<MutantInfo> BlindMutants();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANT_SUPPORT_H_
