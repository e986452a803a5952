// dmconf infer-shape: static shape inference (and every rule check) for one case.
#include <iostream>

#include "harness/cli/case_flags.h"
#include "harness/cli/commands.h"
#include "harness/cli/partial_flags.h"
#include "oracle/input_names.h"
#include "oracle/oracle.h"

namespace dmconf::cli {

void RegisterInferShape(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CaseFlags>();
  CLI::App* cmd = app.add_subcommand(
      "infer-shape",
      "Infer the output shape of one case and list every rule it breaks. No data is needed,\n"
      "so dims may be as large as 2^63-1. Partial shapes, as OpenVINO writes them, get the\n"
      "partial oracle's answer (sound and tight: docs/errata-partial.md): --shape 2..5,?,100..,3\n"
      "(a..b an interval, a.. at least a, ..b at most b, ? any), --shape ... (unknown rank),\n"
      "and, for --block-shape / --pads-* / --crops-*, a non-constant input of --int-type\n"
      "given by its shape: ?[4] (shape [4]), ?[2..5] (a length in [2, 5]), ?[?] (1-D, any\n"
      "length), ? or ?[...] (unknown shape). Its shape must be [N], N the data rank (other\n"
      "shapes are must_reject); with --shape ..., a length the inputs fix is the rank.\n"
      "Examples:\n"
      "  dmconf infer-shape --op SpaceToBatch --shape 2,6,10,3,3 --block-shape 1,2,4,3,1 "
      "--pads-begin 0,0,1,0,0 --pads-end 0,0,1,0,0\n"
      "  dmconf infer-shape --op d2s --shape 1,8..16,2..,? --block-size 2 --mode blocks_first\n"
      "  dmconf infer-shape --op s2b --shape ... --block-shape '?[4]' --pads-begin '?' "
      "--pads-end '?'\n"
      "Exit status: 0 when the oracle answered, 2 for a malformed case.");
  AddCaseFlags(cmd, flags.get(), /*with_data=*/false);
  cmd->callback([flags, exit_code] {
    if (IsPartial(*flags)) {
      absl::StatusOr<PartialCase> p = BuildPartialCase(*flags);
      absl::StatusOr<PartialResult> r =
          p.ok() ? InferPartialShape(*p) : absl::StatusOr<PartialResult>(p.status());
      if (!r.ok()) {
        std::cerr << "dmconf infer-shape: " << r.status().message() << "\n";
        *exit_code = 2;
        return;
      }
      std::cout << "data: " << p->data.ToString() << " (partial)\n";
      const absl::Span<const absl::string_view> names = IntInputNames(p->op);
      for (size_t k = 0; k < names.size() && k < p->int_inputs.size(); ++k) {
        if (p->int_inputs[k]) continue;
        std::cout << names[k] << ": not constant, shape " << p->int_shapes[k].ToString() << "\n";
      }
      std::cout << "expectation: "
                << (r->kind == PartialKind::kShape        ? "valid (for some instances)"
                    : r->kind == PartialKind::kMustReject ? "must_reject (every instance)"
                                                          : "unspecified")
                << "\n";
      if (r->kind == PartialKind::kShape || r->has_output) {
        std::cout << "output_shape: " << r->output.ToString() << "\n";
      }
      if (r->rule != nullptr)
        std::cout << RuleKindName(r->rule->kind) << ": " << r->message << "\n";
      return;
    }
    absl::StatusOr<OpCase> c = BuildCase(*flags, /*with_data=*/false);
    absl::StatusOr<Validation> v = c.ok() ? Validate(*c) : absl::StatusOr<Validation>(c.status());
    if (!v.ok()) {
      std::cerr << "dmconf infer-shape: " << v.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "expectation: " << ExpectationKindName(v->kind()) << "\n";
    if (v->kind() != ExpectationKind::kMustReject && !v->output_shape.empty()) {
      std::cout << "output_shape: " << ShapeToString(v->output_shape) << "\n";
    }
    for (const Violation& x : v->violations) {
      std::cout << RuleKindName(x.rule->kind) << ": " << x.message << "\n";
    }
  });
}

}  // namespace dmconf::cli
