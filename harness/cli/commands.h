// Sub-commands of the `dmconf` executable. Each Register* adds one sub-command to the app and
// sets *exit_code when it runs. One file per sub-command (cmd_<name>.cc).
#ifndef DMCONF_HARNESS_CLI_COMMANDS_H_
#define DMCONF_HARNESS_CLI_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace dmconf::cli {

void RegisterEval(CLI::App& app, int* exit_code);
void RegisterInferShape(CLI::App& app, int* exit_code);
void RegisterRules(CLI::App& app, int* exit_code);
void RegisterVectors(CLI::App& app, int* exit_code);
void RegisterRun(CLI::App& app, int* exit_code);
// `dmconf certify` (cmd_certify.cc): a conformance profile run and its statement.
void RegisterCertify(CLI::App& app, int* exit_code);
void RegisterBackends(CLI::App& app, int* exit_code);
void RegisterShrink(CLI::App& app, int* exit_code);
void RegisterFuzz(CLI::App& app, int* exit_code);
// `dmconf report html | merge | diff` (cmd_report.cc).
void RegisterReport(CLI::App& app, int* exit_code);
// `dmconf vectors generate-shapes | check-shapes` (cmd_shape_vectors.cc), under `vectors`.
void RegisterShapeVectors(CLI::App* vectors, int* exit_code);
// `dmconf vectors run-onnx` (cmd_vectors_onnx.cc), under `vectors`.
void RegisterRunOnnx(CLI::App* vectors, int* exit_code);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_COMMANDS_H_
