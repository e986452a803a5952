// Strict checks for command-line values, and the exit status of a usage error.
//
// CLI11 alone saturates out-of-range integers (`--block-size 99999999999999999999` became
// 2^63-1), accepts `--timeout nan` and negative counts, and exits with its own codes (104-109).
// These validators run on the text before CLI11 converts it, so a value is either exactly
// representable and in range, or refused with a `cli.*` rule and exit status 2.
//
// Example:
//   cmd->add_option("--count", f->count, "...")->check(IntegerIn(0, kMaxCount));
//   cmd->add_option("--seed", f->seed, "...")->check(Unsigned64());
//   cmd->add_option("--timeout", f->timeout, "...")->check(SecondsIn(kMaxTimeoutSeconds));
//   cmd->add_option("--report", f->report, "...")->check(NonEmptyPath());
#ifndef DMCONF_HARNESS_CLI_OPTION_CHECKS_H_
#define DMCONF_HARNESS_CLI_OPTION_CHECKS_H_

#include <cstdint>

#include "CLI/CLI.hpp"
#include "oracle/oracle.h"

namespace dmconf::cli {

// Exit status of every usage error (a bad option, value or combination), as documented.
inline constexpr int kUsageExitCode = 2;

// Largest --count and --directed-count: cases are held in memory, so the bound keeps a typo
// (an extra few zeros) from becoming a giant allocation.
inline constexpr int64_t kMaxCaseCount = 10'000'000;
// Largest --timeout: one day per case.
inline constexpr double kMaxTimeoutSeconds = 86400.0;
// Largest --jobs: isolated workers side by side (each a process with its own memory).
inline constexpr int64_t kMaxJobs = 256;
// Largest --threads (EvalOptions::threads): the oracle's own bound.
inline constexpr int64_t kMaxThreads = kMaxEvalThreads;

// A decimal integer (optional sign, digits only) in [lo, hi]; "cli.integer" otherwise.
CLI::Validator IntegerIn(int64_t lo, int64_t hi);
// Decimal digits only, at most 2^64-1 ("-1" is refused, not wrapped); "cli.integer" otherwise.
CLI::Validator Unsigned64();
// A finite number of seconds in (0, max]; "cli.seconds" otherwise (0, negatives, nan, inf).
CLI::Validator SecondsIn(double max);
// A non-empty path; "cli.path.empty" otherwise (`--report ""` used to write nothing silently).
CLI::Validator NonEmptyPath();
// A non-empty comma-separated list (--ops, --types); "cli.list.empty" otherwise: `--ops ""`
// used to mean "all" silently.
CLI::Validator NonEmptyList();

// The process exit status for a CLI11 parse error, after printing it: 0 for --help (CLI11
// reports help as an "error"), kUsageExitCode for everything else.
int ExitForParseError(const CLI::App& app, const CLI::ParseError& e);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_OPTION_CHECKS_H_
