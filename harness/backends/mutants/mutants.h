// Deliberately wrong backends, each a realistic implementation bug, used to prove that the
// default run catches every one of them with the right verdict class (conformance/harness/
// mutation_test.cc; `dmconf run --backend mutants` prints the mutation score).
//
// Every mutant is the oracle plus one mistake: a model from harness/compare/mistakes.h, a value
// transformation of the output, a missing or over-strict check, or a crash / abort / hang on a
// trigger. Each declares the verdicts that count as catching it.
//
// Example:
//   for (const MutantInfo& m : AllMutants()) { BackendFactory f = MutantFactory(m); ... }
#ifndef DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANTS_H_
#define DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANTS_H_

#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/verdict.h"

namespace dmconf {

struct MutantInfo {
  std::string name;         // "d2s_mode_swapped"
  std::string description;  // the bug, in one line
  std::vector<Verdict> expected_verdicts;
  RunOutcome (*run)(const OpCase& c);
  // Set for mutants of shape inference: the backend declares infer_static and answers
  // InferStatic() with this (Run() stays correct).
  ShapeOutcome (*infer)(const PartialCase& c) = nullptr;
};

const std::vector<MutantInfo>& AllMutants();
BackendFactory MutantFactory(const MutantInfo& m);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_MUTANTS_MUTANTS_H_
