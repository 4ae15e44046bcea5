// The process pool behind `npuconf run --jobs N`: property × profile units run
// in forked worker processes (RapidCheck keeps static state, so threads cannot
// share it), results come back as report.json items (reports/result_json.h) and
// are handed on in the fixed unit order, so a report is the same for any N.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "reports/report.h"

namespace npuconf {

struct PoolUnit {
  std::string name;   // "property@profile": progress line and death messages
  double cost = 1.0;  // estimated seconds (EstimatedUnitSeconds); the longest start first
};

struct PoolOptions {
  int jobs = 2;           // worker processes, ≥ 1
  bool progress = false;  // a progress line on stderr: units done / total, failures, ETA
  // Called in each new worker with its end of the result socket, e.g. to let
  // an in-process port's crash handler leave a crash note there
  // (InProcessPort::SetCrashNoteFd).
  std::function<void(int result_fd)> on_worker_start;
};

// Runs `run(i)` for every unit i in worker processes forked from this one and
// calls `deliver(i, result)` as soon as unit i ends, in whatever order the
// units end (so a result finished behind a long unit is in the reports when
// the run is stopped; the caller puts them in report order). A worker that dies or exits while
// checking a unit (a port crashed the process) makes that unit `died(i, why, note)`, e.g. why =
// "SIGSEGV", with note the case JSON of a crash note the worker left
// ("" when none), and a new worker takes the units still waiting.
using DiedFn = std::function<report::PropertyResult(size_t unit, const std::string& why,
                                                    const std::string& crash_case_json)>;
void RunUnitsInWorkers(const std::vector<PoolUnit>& units, const PoolOptions& options,
                       const std::function<report::PropertyResult(size_t)>& run, const DiedFn& died,
                       const std::function<void(size_t, report::PropertyResult)>& deliver);

// A static estimate of one unit's seconds with the reference port, measured
// once on the 2-core machine (see parallel.cpp); 1 for a unit not listed.
double EstimatedUnitSeconds(const std::string& property, const std::string& profile,
                            bool real_shapes);

// The seconds a run has left: `speed` seconds per unit of estimated cost (as
// the finished units measured it), the unstarted units' costs shared by the
// workers, and each running unit's cost less what it has run, so that one
// long unit still running at the end keeps the estimate honest. `running`:
// (estimated cost, seconds it has run) of each unit being checked.
double EtaSeconds(double unstarted_cost, const std::vector<std::pair<double, double>>& running,
                  int workers, double speed);

// The progress line both the in-process loop and the pool print.
std::string ProgressLine(size_t done, size_t total, int failures, double eta_seconds,
                         const std::string& last);

}  // namespace npuconf
