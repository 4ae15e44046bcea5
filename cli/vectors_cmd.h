// `npuconf vectors generate | check | verify` (docs/vector-format.md): vector
// files with the oracle's expected answers, made from the properties' explicit
// and generated cases or from a list of documented cases; replayed through any
// port with the same reports and exit codes as `run`; re-derived to find stale
// or corrupted cases. And the failures of a run written as vectors.
#pragma once

#include <iosfwd>
#include <string>

#include "reports/report.h"

namespace npuconf {

// argv[0] is the program, argv[1] "vectors". Returns the process exit code
// (core/status.h ExitCode).
int RunVectorsCli(int argc, char** argv, std::ostream& out, std::ostream& err);

// Writes every failing result's (shrunk) counterexample of `report` to
// OUT_DIR/failures/<property>@<profile>.json as a one-case vector file with
// the oracle's expected answer (cross-checked against the reference). A case
// without an oracle answer (a routine with no expected function, a case
// outside the vendor's defined domain) is named on stderr and left out.
void WriteFailureVectors(const report::RunReport& report, const std::string& out_dir);

}  // namespace npuconf
