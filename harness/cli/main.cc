// dmconf: conformance and fuzz suite for OpenVINO's data-movement ops. See README.md.
#include <iostream>

#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/terminal_text.h"

int main(int argc, char** argv) {
  // Control bytes from ids, paths, option values and plugin messages are printed as \xNN.
  dmconf::cli::EscapeControlBytes escaped_output;
  CLI::App app{
      "dmconf: a conformance suite with a specification oracle for OpenVINO's SpaceToBatch-2,\n"
      "BatchToSpace-2, SpaceToDepth-1, DepthToSpace-1 and ExtractImagePatches-3.\n"
      "Run `dmconf <command> --help` for the options of one command."};
  app.require_subcommand(1);
  int exit_code = 0;
  dmconf::cli::RegisterEval(app, &exit_code);
  dmconf::cli::RegisterInferShape(app, &exit_code);
  dmconf::cli::RegisterRules(app, &exit_code);
  dmconf::cli::RegisterVectors(app, &exit_code);
  dmconf::cli::RegisterRun(app, &exit_code);
  dmconf::cli::RegisterCertify(app, &exit_code);
  dmconf::cli::RegisterBackends(app, &exit_code);
  dmconf::cli::RegisterShrink(app, &exit_code);
  dmconf::cli::RegisterFuzz(app, &exit_code);
  dmconf::cli::RegisterReport(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return dmconf::cli::ExitForParseError(app, e);
  }
  return exit_code;
}
