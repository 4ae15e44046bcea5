#include "cli/report_cmd.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/families.h"
#include "cli/fingerprint.h"
#include "cli/options.h"
#include "cli/selftest_cmd.h"
#include "conformance/harness/coverage.h"
#include "conformance/harness/waivers.h"
#include "conformance/ports/claims.h"
#include "core/json_text.h"
#include "core/status.h"
#include "reports/report_writer.h"
#include "reports/result_json.h"
#include "reports/text.h"

namespace npuconf {
namespace {

// DIR/report.json, or a report.json path; read back. Throws naming the path.
report::RunReport ReadReport(const std::string& where, bool* complete) {
  const std::filesystem::path path = std::filesystem::is_directory(where)
                                         ? std::filesystem::path(where) / "report.json"
                                         : std::filesystem::path(where);
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << file.rdbuf();
  report::RunReport run;
  try {
    run = report::RunReportFromText(text.str(), complete);
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
  // Read as a whole above; its digest now (json_text.h's limits held).
  std::string why;
  const auto doc = ParseJsonText(text.str(), &why);
  if (const std::string error = doc ? report::CheckReportDigest(*doc) : why; !error.empty())
    throw std::runtime_error(path.string() + " " + error);
  return run;
}

std::string ShardName(const report::RunReport& r) {
  return "shard " + std::to_string(r.shard_index) + "/" + std::to_string(r.shard_count);
}

}  // namespace

report::RunReport MergeShards(const std::vector<report::RunReport>& shards,
                              const std::vector<std::string>& names,
                              std::vector<std::string>* problems,
                              std::vector<std::string>* refusals) {
  if (!refusals) refusals = problems;
  report::RunReport merged;
  if (shards.empty()) {
    problems->push_back("no shard given");
    return merged;
  }
  const report::RunReport& first = shards.front();
  // Shards of one run agree on everything but their units: their fingerprints
  // (every option that decides what is checked) match, but for the waivers,
  // which the merge applies anew.
  auto differs = [&](const report::RunReport& r) -> std::string {
    if (r.shard_count == 0) return "is not a shard (run without --shard)";
    if (r.fingerprint.empty() || first.fingerprint.empty())
      return "has no run fingerprint (written by an older npuconf): run the shards again";
    std::set<std::string> options;
    for (const auto& [option, value] : first.fingerprint) options.insert(option);
    for (const auto& [option, value] : r.fingerprint) options.insert(option);
    options.erase("waivers");
    std::string other;
    for (const std::string& option : options) {
      const auto a = r.fingerprint.find(option), b = first.fingerprint.find(option);
      const std::string here = a == r.fingerprint.end() ? "(not recorded)" : a->second;
      const std::string there = b == first.fingerprint.end() ? "(not recorded)" : b->second;
      if (here != there)
        other += (other.empty() ? "" : "; ") + option + " '" + here + "', not '" + there + "'";
    }
    if (!other.empty()) return "ran with other options than " + names.front() + ": " + other;
    if (r.shard_count != first.shard_count)
      return "is one of " + std::to_string(r.shard_count) + " shards, not " +
             std::to_string(first.shard_count);
    if (r.selection != first.selection || r.units_total != first.units_total)
      return "is a shard of another selection of properties and profiles";
    if (r.seed != first.seed || r.cases != first.cases) return "ran with another seed or --cases";
    if (r.port_name != first.port_name || r.port_version != first.port_version ||
        r.port_claims != first.port_claims)
      return "checked another port (or other claims)";
    if (r.suite_version != first.suite_version) return "ran another npuconf version";
    if (r.max_case_bytes != first.max_case_bytes) return "ran with another --max-case-bytes";
    if (r.coverage_filter != first.coverage_filter) return "ran with other filters";
    return "";
  };
  for (size_t i = 0; i < shards.size(); ++i) {
    if (const std::string why = differs(shards[i]); !why.empty())
      refusals->push_back(names[i] + " " + why);
  }
  if (!refusals->empty() && refusals != problems) return merged;
  std::map<int, std::string> seen;
  for (size_t i = 0; i < shards.size(); ++i) {
    const report::RunReport& r = shards[i];
    if (!differs(r).empty()) continue;
    if (const auto it = seen.find(r.shard_index); it != seen.end()) {
      problems->push_back(ShardName(r) + " is given twice: " + it->second + " and " + names[i]);
      continue;
    }
    seen[r.shard_index] = names[i];
    merged.results.insert(merged.results.end(), r.results.begin(), r.results.end());
  }
  if (first.shard_count > 0) {
    for (int k = 1; k <= first.shard_count; ++k) {
      if (!seen.count(k))
        problems->push_back("shard " + std::to_string(k) + "/" + std::to_string(first.shard_count) +
                            " is missing");
    }
  }
  merged.suite_version = first.suite_version;
  // One kernel path: the fingerprints agree on it.
  merged.isa = first.isa;
  merged.fingerprint = first.fingerprint;
  merged.port_name = first.port_name;
  merged.port_version = first.port_version;
  merged.port_claims = first.port_claims;
  merged.seed = first.seed;
  merged.cases = first.cases;
  merged.max_case_bytes = first.max_case_bytes;
  merged.coverage_filter = first.coverage_filter;
  // Profiles in the built-in order, as an unsharded run lists them.
  std::set<std::string> names_seen;
  for (const auto& r : shards) names_seen.insert(r.profiles.begin(), r.profiles.end());
  for (const Profile& p : BuiltinProfiles()) {
    if (names_seen.count(p.name)) merged.profiles.push_back(p.name);
  }
  // The unsharded order; the gate's own results (one per routine x profile)
  // are made again below from every unit's coverage.
  std::erase_if(merged.results, [](const report::PropertyResult& r) { return r.unit < 0; });
  std::stable_sort(merged.results.begin(), merged.results.end(),
                   [](const auto& a, const auto& b) { return a.unit < b.unit; });
  for (size_t i = 1; i < merged.results.size(); ++i) {
    if (merged.results[i].unit == merged.results[i - 1].unit)
      problems->push_back("unit " + std::to_string(merged.results[i].unit) +
                          " is in more than one shard");
  }
  if (problems->empty() && static_cast<int>(merged.results.size()) != first.units_total) {
    problems->push_back("the shards hold " + std::to_string(merged.results.size()) + " of " +
                        std::to_string(first.units_total) + " units");
  }
  // Each result as the port's answers made it: the shards' waivers never
  // govern the merge (RunReportCli applies its own --waivers, if any).
  for (auto& r : merged.results) Unwaive(&r);
  // The coverage gate over every unit, on the profiles as the port claims them.
  const PortClaims claims = PortClaims::Parse(merged.port_claims);
  std::vector<Profile> claimed;
  for (const std::string& name : merged.profiles)
    claimed.push_back(ProfileAsClaimed(*FindProfile(name), claims).value_or(*FindProfile(name)));
  std::vector<const Profile*> profiles;
  for (const Profile& p : claimed) profiles.push_back(&p);
  for (auto& r : merged.results) r.unit = -1;
  ApplyValidCaseRule(&merged);
  ApplyCoverageGate(BuiltinSuite(), merged.coverage_filter, profiles, &merged);
  return merged;
}

namespace {

using Key = std::pair<std::string, std::string>;  // property, profile

std::string Line(const report::PropertyResult& r) { return "`" + r.property + "` on " + r.profile; }

}  // namespace

std::string DiffReports(const report::RunReport& old_run, const report::RunReport& new_run,
                        bool* regressed) {
  std::map<Key, const report::PropertyResult*> before, after;
  for (const auto& r : old_run.results) before[{r.property, r.profile}] = &r;
  for (const auto& r : new_run.results) after[{r.property, r.profile}] = &r;
  std::vector<std::string> failing, fixed, changed, other, gone, waived, unclaimed;
  for (const auto& r : new_run.results) {
    const auto it = before.find({r.property, r.profile});
    const report::PropertyResult* was = it == before.end() ? nullptr : it->second;
    const bool fails = report::IsFailure(r.outcome);
    const bool failed = was && report::IsFailure(was->outcome);
    // A failure waived now that did not fail before is a new failure a waiver
    // hides; a result the port no longer claims is a check it left.
    const bool was_waived = was && was->outcome == report::Outcome::kWaived;
    if (r.outcome == report::Outcome::kWaived && !failed && !was_waived) {
      waived.push_back(Line(r) + ": " + report::SanitizeUtf8(r.message) + " (was " +
                       (was ? report::ToString(was->outcome) : std::string("not reported")) +
                       "; waived: " + r.waiver.reason + ", expires " + r.waiver.expires + ")");
    } else if (r.outcome == report::Outcome::kNotClaimed && was &&
               was->outcome != report::Outcome::kNotClaimed) {
      unclaimed.push_back(Line(r) + ": was " + report::ToString(was->outcome) +
                          ", now not claimed");
    } else if (fails && !failed) {
      failing.push_back(Line(r) + ": " + report::SanitizeUtf8(r.message) +
                        (r.counterexample.empty() ? "" : "\n  - case `" + r.counterexample + "`") +
                        (r.reproduce.empty() ? "" : "\n  - reproduce `" + r.reproduce + "`") +
                        (was ? " (was " + report::ToString(was->outcome) + ")" : " (new)"));
    } else if (!fails && failed) {
      fixed.push_back(Line(r) + ": now " + report::ToString(r.outcome));
    } else if (fails && failed && r.counterexample != was->counterexample) {
      changed.push_back(Line(r) + ": `" + was->counterexample + "` → `" + r.counterexample + "`");
    } else if (was && r.outcome != was->outcome) {
      other.push_back(Line(r) + ": " + report::ToString(was->outcome) + " → " +
                      report::ToString(r.outcome));
    }
  }
  for (const auto& r : old_run.results) {
    if (!after.count({r.property, r.profile}))
      gone.push_back(Line(r) + " (was " + report::ToString(r.outcome) + ")");
  }
  const std::set<std::string> old_claims(old_run.port_claims.begin(), old_run.port_claims.end());
  const std::set<std::string> new_claims(new_run.port_claims.begin(), new_run.port_claims.end());
  std::vector<std::string> gained, lost;
  for (const auto& c : new_claims) {
    if (!old_claims.count(c)) gained.push_back("`" + c + "`");
  }
  for (const auto& c : old_claims) {
    if (!new_claims.count(c)) lost.push_back("`" + c + "`");
  }
  // Options that decide what was checked, side by side where they differ.
  std::vector<std::string> options;
  if (old_run.fingerprint.empty() || new_run.fingerprint.empty()) {
    options.push_back(std::string("the ") + (old_run.fingerprint.empty() ? "old" : "new") +
                      " report has no run fingerprint (an older npuconf): the options are "
                      "not compared");
  } else {
    std::set<std::string> keys;
    for (const auto& [k, v] : old_run.fingerprint) keys.insert(k);
    for (const auto& [k, v] : new_run.fingerprint) keys.insert(k);
    for (const std::string& k : keys) {
      const auto a = old_run.fingerprint.find(k), b = new_run.fingerprint.find(k);
      const std::string was = a == old_run.fingerprint.end() ? "(not recorded)" : a->second;
      const std::string now = b == new_run.fingerprint.end() ? "(not recorded)" : b->second;
      if (was != now) options.push_back("`" + k + "`: `" + was + "` → `" + now + "`");
    }
  }
  // One shard of a run cannot show that nothing broke: the rest of its units
  // are "no longer reported".
  std::string shard_note;
  if (new_run.shard_count > 0) {
    shard_note = "**The new report is one shard** (" + std::to_string(new_run.shard_index) + "/" +
                 std::to_string(new_run.shard_count) +
                 ") of a run: diff the merged report (npuconf report merge); what the other "
                 "shards hold is listed as no longer reported.\n\n";
  }
  *regressed = !failing.empty() || !waived.empty() || !unclaimed.empty() || !shard_note.empty();
  std::ostringstream out;
  out << "## npuconf report diff: " << failing.size() << " new failure"
      << (failing.size() == 1 ? "" : "s") << ", " << waived.size() << " newly waived, "
      << unclaimed.size() << " no longer claimed, " << fixed.size() << " fixed, " << changed.size()
      << " changed counterexample" << (changed.size() == 1 ? "" : "s") << "\n\n";
  out << shard_note;
  out << "Old: `" << old_run.port_name << "` " << old_run.port_version << " (npuconf "
      << old_run.suite_version << ", seed " << old_run.seed << "); new: `" << new_run.port_name
      << "` " << new_run.port_version << " (npuconf " << new_run.suite_version << ", seed "
      << new_run.seed << ")\n";
  auto section = [&](const std::string& title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out << "\n### " << title << " (" << items.size() << ")\n\n";
    for (const auto& item : items) out << "- " << item << "\n";
  };
  section("New failures", failing);
  section("Newly waived (failing now, a waiver hides it)", waived);
  section("Claimed before, not claimed now", unclaimed);
  section("Run fingerprints differ (the runs checked under other options)", options);
  section("Fixed", fixed);
  section("Changed counterexamples", changed);
  section("Claims gained", gained);
  section("Claims lost", lost);
  section("Other changes of outcome", other);
  section("Results no longer reported", gone);
  if (failing.empty() && fixed.empty() && changed.empty() && gained.empty() && lost.empty() &&
      other.empty() && gone.empty() && waived.empty() && unclaimed.empty())
    out << "\nNo change in results or claims.\n";
  return out.str();
}

int RunReportCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"npuconf report: merge the reports of shards, compare two runs"};
  app.name("npuconf report");
  app.require_subcommand(1);
  app.footer(
      "Exit codes:\n"
      "  merge: as `run` (0, 1, 4), judged anew with merge's own --waivers (none: nothing is\n"
      "     waived); 2, with no verdict, for a missing, repeated or unfinished shard (the merged\n"
      "     report is written, INCOMPLETE), or a refused set: a report that is not a shard, whose\n"
      "     digest does not match its content (edited or corrupted), or whose run fingerprint\n"
      "     (every option that decides what is checked) differs from the first shard's (no\n"
      "     report is written); 2 also for an unwritable --out\n"
      "  diff: 1 when a result that was not failing fails now or is newly waived, a result\n"
      "     claimed before is not claimed now, or the new report is one shard or did not\n"
      "     finish; 2 for an unreadable, edited or corrupted report; else 0 (differing run\n"
      "     fingerprints are listed, not an exit)");
  std::string out_dir = "npuconf-report", waivers_path, diff_out;
  bool strict = false;
  std::vector<std::string> shard_dirs;
  auto* merge = app.add_subcommand("merge", "Join the reports of `run --shard K/N` shards");
  merge->add_option("--out", out_dir, "Directory for the merged reports")->required();
  merge->add_option("shards", shard_dirs, "The shards' --out directories (or report.json files)")
      ->required();
  merge->add_option("--waivers", waivers_path,
                    "Waivers that judge the merged results (the shards' waivers never "
                    "govern: without this option nothing is waived)");
  merge->add_flag("--strict-waivers", strict,
                  "A waiver no merged failure used fails the merged run");
  std::string today_text;
  merge->add_option("--today", today_text,
                    "YYYY-MM-DD: judge waiver expiry by this date, not the clock's (for tests; "
                    "every report says so)");
  std::string old_dir, new_dir;
  auto* diff = app.add_subcommand("diff", "What changed from one run's reports to another's");
  diff->add_option("old", old_dir, "The earlier run's --out directory (or report.json)")
      ->required();
  diff->add_option("new", new_dir, "The later run's --out directory (or report.json)")->required();
  diff->add_option("--out", diff_out, "Also write the Markdown to this file (a PR comment)");
  if (const int code = ParseSubcommand(app, argc, argv, "npuconf report", out, err); code >= 0)
    return code;
  try {
    if (*diff) {
      bool old_complete = true, new_complete = true;
      const report::RunReport old_run = ReadReport(old_dir, &old_complete);
      const report::RunReport new_run = ReadReport(new_dir, &new_complete);
      bool regressed = false;
      std::string md = DiffReports(old_run, new_run, &regressed);
      // A run that did not finish cannot show that nothing broke: what it
      // never reached is listed as gone, and the diff fails.
      if (!new_complete) {
        md = "**The new run did not finish** (report.json \"complete\": false): its " +
             std::to_string(new_run.results.size()) +
             " results are compared; the rest are listed as no longer reported.\n\n" + md;
        regressed = true;
      }
      if (!old_complete)
        md = "The old run did not finish (report.json \"complete\": false).\n\n" + md;
      out << md;
      if (!diff_out.empty()) {
        if (std::string error = report::WriteFileAtomically(diff_out, md); !error.empty()) {
          err << "npuconf report diff: " << error << "\n";
          return kExitBadUsage;
        }
      }
      return regressed ? kExitNonConformant : kExitConformant;
    }
    // A merge removes the reports of an earlier one first: a refused merge
    // leaves none, never an older verdict. So --out is no shard's directory.
    for (const std::string& dir : shard_dirs) {
      std::error_code ec;
      const std::filesystem::path given = std::filesystem::is_directory(dir)
                                              ? std::filesystem::path(dir)
                                              : std::filesystem::path(dir).parent_path();
      if (std::filesystem::equivalent(given.empty() ? "." : given, out_dir, ec)) {
        err << "npuconf report merge: --out '" << out_dir << "' holds the shard '" << dir
            << "': give the merge a directory of its own\n";
        return kExitBadUsage;
      }
    }
    if (std::filesystem::is_directory(out_dir)) {
      if (std::string error = report::LockReportDir(out_dir); !error.empty()) {
        err << "npuconf report merge: " << error << "\n";
        return kExitBadUsage;
      }
      if (std::string error = report::RemoveStaleReports(out_dir); !error.empty()) {
        err << "npuconf report merge: " << error << "\n";
        return kExitBadUsage;
      }
    }
    std::vector<report::RunReport> shards;
    std::vector<std::string> problems, refusals;
    for (const std::string& dir : shard_dirs) {
      bool complete = true;
      shards.push_back(ReadReport(dir, &complete));
      if (!complete) problems.push_back(dir + " is the report of a shard that did not finish");
    }
    // The merge's own waivers judge every result (the shards' never govern):
    // read before the merge, so that a bad file is bad usage.
    WaiverSet waivers;
    waivers.path = waivers_path;
    waivers.strict = strict;
    if (!waivers_path.empty()) {
      std::ifstream file(waivers_path);
      std::stringstream text;
      text << file.rdbuf();
      if (!file) {
        err << "npuconf report merge: cannot read --waivers '" << waivers_path << "'\n";
        return kExitBadUsage;
      }
      if (std::string error = ParseWaivers(text.str(), BuiltinSuite(), &waivers); !error.empty()) {
        err << "npuconf report merge: --waivers " << waivers_path << ": " << error << "\n";
        return kExitBadUsage;
      }
    } else if (strict) {
      err << "npuconf report merge: --strict-waivers needs --waivers FILE\n";
      return kExitBadUsage;
    }
    report::RunReport merged = MergeShards(shards, shard_dirs, &problems, &refusals);
    if (!refusals.empty()) {
      for (const auto& r : refusals) err << "npuconf report merge: refused: " << r << "\n";
      err << "npuconf report merge: no report written, no verdict (exit " << kExitBadUsage << ")\n";
      return kExitBadUsage;
    }
    // The shards quoted one selftest on their own results; the merged run quotes it on all.
    if (!shards.empty() && shards.front().kill_rate.measured) {
      Selftest selftest;
      if (ReadSelftest(shards.front().kill_rate.file, &selftest).empty()) {
        merged.kill_rate = QuoteKillRate(selftest, merged);
      } else {
        problems.push_back("the shards' --selftest file " + shards.front().kill_rate.file +
                           " cannot be read again to quote it on the merged results");
      }
    }
    merged.command = "npuconf report merge";
    for (int i = 2; i < argc; ++i) merged.command += std::string(" ") + argv[i];
    std::string waivers_error;
    merged.fingerprint["waivers"] = FileIdentity(waivers_path, &waivers_error);
    if (!waivers_path.empty()) {
      std::vector<bool> used(waivers.entries.size(), false);
      std::string today = TodayUtc();
      if (!today_text.empty()) {
        if (std::string error = ParseToday(today_text, &today); !error.empty()) {
          err << "npuconf report merge: " << error << "\n";
          return kExitBadUsage;
        }
      }
      merged.today = today;
      merged.today_forced = !today_text.empty();
      for (auto& r : merged.results)
        ApplyWaiversKeepingRaw(waivers, today, BuiltinSuite(), &r, &used);
      FinishWaivers(waivers, used, false, &merged);
    }
    // The verdict is decided; every file says it, or none is written.
    if (std::string error = report::WriteReportsAtomically(
            merged, out_dir, problems.empty(),
            problems.empty() ? "" : "the shards given are not the whole run (report merge)");
        !error.empty()) {
      err << "npuconf report merge: " << error << "\n";
      return kExitBadUsage;
    }
    if (!problems.empty()) {
      // Exit 2 is no verdict: the merged results so far are in the reports,
      // marked incomplete, and nothing here reads as one.
      for (const auto& p : problems) err << "npuconf report merge: " << p << "\n";
      err << "npuconf report merge: the merged report in " << out_dir
          << " is INCOMPLETE; no verdict (exit " << kExitBadUsage << ")\n";
      return kExitBadUsage;
    }
    out << report::SummaryTable(merged);
    out << "reports: " << out_dir << "/report.json, junit.xml, report.md, report.html\n";
    return report::RunExitCode(merged);
  } catch (const std::exception& e) {
    err << "npuconf report: " << e.what() << "\n";
    return kExitBadUsage;
  }
}

}  // namespace npuconf
