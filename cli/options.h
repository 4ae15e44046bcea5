// Validation of the command line's values: every bad value is refused with a
// short message naming it (no wrapped negatives, no 309-digit ranges).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace npuconf {

// An integer in [lo, hi], written in decimal digits (a leading '-' only when lo < 0).
CLI::Validator IntegerIn(int64_t lo, int64_t hi);
// Any uint64 in decimal digits: no sign, no wrap-around.
CLI::Validator Unsigned64();

// Parses a subcommand's own arguments (argv[1] is its name): -1 when the
// command goes on, else its exit code — 0 after --help, 2 (naming `program`
// and the fault) for bad usage.
int ParseSubcommand(CLI::App& app, int argc, char** argv, const std::string& program,
                    std::ostream& out, std::ostream& err);

// Empty, or why `text` is not a usable RapidCheck reproduce string (from
// report.json's rapidcheck_reproduce): malformed, without a reproduce entry,
// or naming a property or profile npuconf does not have.
std::string CheckRcReproduce(const std::string& text);

// Empty, or "unknown subcommand 'X' (…)" when argv's first word that is not an
// option is no subcommand of `names`.
std::string CheckSubcommand(int argc, char** argv, const std::vector<std::string>& names);

// The value of repeated glob options as one pattern for GlobMatch: the
// alternatives joined by ','.
std::string JoinGlobs(const std::vector<std::string>& globs);

// The npuconf binary as reproduce commands name it: argv[0] made absolute, or,
// for a bare name found through PATH, the executable the kernel ran
// (/proc/self/exe); "npuconf" when neither is known.
std::string AbsoluteProgram(int argc, char** argv);

}  // namespace npuconf
