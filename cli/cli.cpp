#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/case_output.h"
#include "cli/families.h"
#include "cli/fingerprint.h"
#include "cli/open_port.h"
#include "cli/options.h"
#include "cli/report_cmd.h"
#include "cli/selftest_cmd.h"
#include "cli/vectors_cmd.h"
#include "conformance/harness/determinism.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/waivers.h"
#include "conformance/ports/claims.h"
#include "core/case_json.h"
#include "core/interrupt.h"
#include "core/json_text.h"
#include "core/real_shapes.h"
#include "core/status.h"
#include "reference/simd/isa.h"
#include "reports/matrix.h"
#include "reports/report_writer.h"

namespace npuconf {
namespace {

// Checks a parsed case: known routine, params of the routine's spec, a known
// profile. Exit code 2 with a message naming what is wrong.
int CheckCase(Case* c, const Profile** profile, std::ostream& err) {
  const Routine* routine = BuiltinSuite().FindRoutine(c->routine);
  if (!routine) {
    err << "npuconf: unknown routine '" << c->routine << "' (npuconf list routines)\n";
    return kExitBadUsage;
  }
  if (std::string invalid = ValidateCase(*routine->spec, c); !invalid.empty()) {
    err << "npuconf: " << invalid << "\n";
    return kExitBadUsage;
  }
  if (c->profile.empty()) {
    err << "npuconf: the case needs profile=NAME (npuconf list profiles)\n";
    return kExitBadUsage;
  }
  *profile = FindProfile(c->profile);
  if (!*profile) {
    err << "npuconf: unknown profile '" << c->profile << "' (npuconf list profiles)\n";
    return kExitBadUsage;
  }
  return kExitConformant;
}

// Builds a case from `ROUTINE key=value …`, or from a case JSON file (`--from
// FILE`, `-` for stdin); exit code 2 with a message on error.
int ParseCase(const std::vector<std::string>& words, const std::string& from, Case* c,
              const Profile** profile, std::ostream& err) {
  if (!from.empty()) {
    if (!words.empty()) {
      err << "npuconf: give a case either as words or with --from, not both\n";
      return kExitBadUsage;
    }
    std::ifstream file_stream;
    if (from != "-") file_stream.open(from);
    std::istream& in = from == "-" ? std::cin : file_stream;
    if (!in) {
      err << "npuconf: cannot read case file '" << from << "'\n";
      return kExitBadUsage;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string why;
    const auto doc = ParseJsonText(text.str(), &why);
    if (!doc) {
      err << "npuconf: case file '" << from << "' is not JSON: " << why << "\n";
      return kExitBadUsage;
    }
    if (std::string error = CaseFromJson(*doc, c); !error.empty()) {
      err << "npuconf: case file '" << from << "': " << error << "\n";
      return kExitBadUsage;
    }
    return CheckCase(c, profile, err);
  }
  if (words.empty()) {
    err << "npuconf: a case needs a routine (npuconf list routines)\n";
    return kExitBadUsage;
  }
  c->routine = words[0];
  const std::string error = ParseCaseArgs({words.begin() + 1, words.end()}, c);
  if (!error.empty()) {
    err << "npuconf: " << error << "\n";
    return kExitBadUsage;
  }
  return CheckCase(c, profile, err);
}

// One routine for a person: id, vendor API, params with type, unit and default,
// inputs and outputs with units and compare modes.
void PrintRoutine(const RoutineSpec& spec, std::ostream& out) {
  out << spec.id << (spec.vendor_api.empty() ? "" : "  (" + spec.vendor_api + ")") << "  ["
      << spec.source << "]\n";
  out << "    " << spec.summary << "\n";
  for (const auto& p : spec.params) {
    out << "    param  " << p.key << ": " << ToString(p.type);
    if (!p.values.empty()) {
      out << " {";
      for (size_t i = 0; i < p.values.size(); ++i) out << (i ? "|" : "") << p.values[i];
      out << "}";
    }
    if (!p.unit.empty()) out << ", " << p.unit;
    if (p.required) out << ", required";
    if (p.nullable) out << ", may be null";
    if (p.data) out << ", input data (no claim narrows it)";
    if (p.default_value) out << ", default " << p.default_value->ToText();
    if (!p.default_doc.empty()) out << ", default " << p.default_doc;
    out << " - " << p.doc << "\n";
  }
  for (const auto& t : spec.inputs)
    out << "    input  " << t.name << ": " << t.dtype << " " << t.shape
        << (t.doc.empty() ? "" : " - " + t.doc) << "\n";
  for (const auto& t : spec.outputs) {
    out << "    output " << t.name << ": " << t.dtype << " " << t.shape
        << (t.doc.empty() ? "" : " - " + t.doc);
    if (!t.value_unit.empty()) out << "; values: " << t.value_unit;
    if (t.nullable) out << "; may be null (" << t.name << "=null)";
    out << "; compared " << t.compare.ToString() << "\n";
  }
  if (!spec.facts.empty()) {
    out << "    facts ";
    for (size_t i = 0; i < spec.facts.size(); ++i) out << (i ? ", " : "") << spec.facts[i];
    out << "  (npuconf list facts --profile P)\n";
  }
}

// The routines whose spec names fact `path` (or its section with ".*").
std::vector<std::string> ReadersOf(const std::string& path, const std::string& family) {
  std::vector<std::string> out;
  const std::string section = path.substr(0, path.find('.')) + ".*";
  for (const RoutineSpec* spec : BuiltinSuite().specs()) {
    if (spec->vendor != family) continue;
    if (std::find(spec->facts.begin(), spec->facts.end(), path) != spec->facts.end() ||
        (path.find('.') != std::string::npos &&
         std::find(spec->facts.begin(), spec->facts.end(), section) != spec->facts.end()))
      out.push_back(spec->id);
  }
  return out;
}

// `list facts`: every fact of the selected profiles with its source and the
// routines that read it, then the choices with their readings (issue 15 item 6).
int ListFactsOf(const std::vector<std::string>& globs, bool json, std::ostream& out,
                std::ostream& err) {
  std::string error;
  const std::vector<const Profile*> profiles = SelectProfiles(globs, &error);
  if (!error.empty()) {
    err << "npuconf: " << error << "\n";
    return kExitBadUsage;
  }
  nlohmann::json doc = {
      {"schema", "npuconf-facts"}, {"schema_version", 1}, {"profiles", nlohmann::json::array()}};
  for (const Profile* p : profiles) {
    nlohmann::json facts = nlohmann::json::array(), choices = nlohmann::json::array();
    if (!json)
      out << p->name << "  " << p->title << "  (" << p->family
          << (p->verified ? "" : "; unverified: its routines are not covered") << ")\n";
    for (const FactRow& f : ListFacts(*p)) {
      const std::vector<std::string> readers = ReadersOf(f.path, p->family);
      facts.push_back(
          {{"path", f.path}, {"value", f.value}, {"source", f.source}, {"read_by", readers}});
      if (json) continue;
      const bool rows = f.value.is_array() && !f.value.empty() && f.value[0].is_object();
      out << "  " << f.path << " =" << (rows ? "" : " " + f.value.dump()) << "\n";
      if (rows) {
        for (const auto& row : f.value) out << "      " << row.dump() << "\n";
      }
      out << "      source: " << f.source << "\n";
      if (!readers.empty()) {
        out << "      read by:";
        for (const auto& r : readers) out << " " << r;
        out << "\n";
      }
    }
    for (const Choice& c : p->choices) {
      nlohmann::json unchecked = nlohmann::json::object(), contradicted = unchecked;
      for (const auto& [reading, why] : c.cannot_check) unchecked[reading] = why;
      for (const auto& [reading, why] : c.contradicted) contradicted[reading] = why;
      choices.push_back({{"name", c.name},
                         {"value", c.value},
                         {"readings", c.readings},
                         {"source", c.source},
                         {"note", c.note},
                         {"cannot_check", unchecked},
                         {"contradicted", contradicted}});
      if (json) continue;
      out << "  choice " << c.name << " = " << c.value << "  (readings:";
      for (const auto& r : c.readings) out << " " << r;
      out << ")\n      " << c.note << "\n      source: " << c.source << "\n";
      for (const auto& [reading, why] : c.cannot_check)
        out << "      reading " << reading << " cannot be claimed: " << why << "\n";
      for (const auto& [reading, why] : c.contradicted)
        out << "      reading " << reading << " is contradicted by a device: " << why << "\n";
    }
    doc["profiles"].push_back({{"name", p->name},
                               {"family", p->family},
                               {"title", p->title},
                               {"verified", p->verified},
                               {"facts", facts},
                               {"choices", choices}});
  }
  if (json) out << doc.dump(2) << "\n";
  return kExitConformant;
}

int List(const std::string& what, bool json, const std::vector<std::string>& profile_globs,
         std::ostream& out, std::ostream& err) {
  if (what == "facts") return ListFactsOf(profile_globs, json, out, err);
  if (!profile_globs.empty()) {
    err << "npuconf: --profile is available for 'list facts' only\n";
    return kExitBadUsage;
  }
  if (json && what != "routines") {
    err << "npuconf: --json is available for 'list routines' and 'list facts' only\n";
    return kExitBadUsage;
  }
  if (what == "profiles") {
    for (const auto& p : BuiltinProfiles()) {
      out << std::left << std::setw(14) << p.name << " " << std::setw(5) << p.family << " "
          << p.title << (p.verified ? "" : " [unverified]") << "\n";
      for (const auto& c : p.choices) {
        out << "    choice " << c.name << " = " << c.value << "  (readings:";
        for (const auto& r : c.readings) out << " " << r;
        out << "; " << c.source << ")\n";
        for (const auto& [reading, why] : c.contradicted)
          out << "        reading " << reading << " is contradicted by a device: " << why << "\n";
      }
    }
  } else if (what == "routines") {
    if (json) {
      nlohmann::json doc = {{"schema", "npuconf-routines"},
                            {"schema_version", 1},
                            {"routines", nlohmann::json::array()}};
      for (const RoutineSpec* spec : BuiltinSuite().specs())
        doc["routines"].push_back(ToJson(*spec));
      out << doc.dump(2) << "\n";
    } else {
      for (const RoutineSpec* spec : BuiltinSuite().specs()) PrintRoutine(*spec, out);
    }
  } else if (what == "properties") {
    for (const auto& p : BuiltinSuite().properties()) {
      out << std::left << std::setw(58) << p.name << " " << p.description << "\n";
    }
  } else if (what == "ports") {
    out << "reference                          the built-in reference port\n";
    for (const auto& m : Mutants()) {
      out << std::left << std::setw(34) << ("mutant:" + m.name) << " " << m.bug << " (caught by "
          << m.caught_by << ")\n";
    }
  } else {
    err << "npuconf: unknown list '" << what
        << "' (profiles, routines, properties, ports, facts)\n";
    return kExitBadUsage;
  }
  return kExitConformant;
}

}  // namespace

int RunCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  // A forced kernel path the CPU lacks (or no path at all) stops every command
  // before it runs: a run or a benchmark on another path than asked is no answer.
  if (const std::string error = simd::IsaEnvironmentError(); !error.empty()) {
    err << "npuconf: " << error << "\n";
    return kExitBadUsage;
  }
  if (argc > 1 && std::string(argv[1]) == "vectors") return RunVectorsCli(argc, argv, out, err);
  if (argc > 1 && std::string(argv[1]) == "report") return RunReportCli(argc, argv, out, err);
  if (argc > 1 && std::string(argv[1]) == "selftest") return RunSelftestCli(argc, argv, out, err);
  CLI::App app{"npuconf: conformance suite for NPU tensor layout, size and dequant routines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(NPUCONF_SUITE_VERSION));
  app.footer(
      "Exit codes:\n"
      "  0  conformant: every checked property held\n"
      "  1  non-conformant: a property failed, gave up or checked nothing it claims\n"
      "  2  bad usage or bad input (option, case, claims, --out unwritable, full or held by "
      "another\n"
      "     run, a case over --max-case-bytes)\n"
      "  3  the port could not be loaded\n"
      "  4  nothing was checked: no claimed, applicable case on the selected profiles and\n"
      "     routines (check: the case lies outside the port's claims or the profile); a shard\n"
      "     (--shard K/N) holding no claimed unit exits 0 instead: its merge gives the verdict\n"
      "  130, 143, 129  run stopped by SIGINT, SIGTERM, SIGHUP: workers and ports ended, the\n"
      "     reports so far kept (\"complete\": false)\n"
      "Also: npuconf vectors generate|check|verify (test vectors, docs/vector-format.md);\n"
      "      npuconf report merge|diff (shards of one run; two runs compared);\n"
      "      npuconf selftest (which built-in mutants the properties kill; 1 when one survives)");

  std::string port_arg = "reference";
  PortOptions port_options;
  // Isolation options of a .so port, on every subcommand that calls a port.
  auto add_port_options = [&port_options](CLI::App* sub) {
    sub->add_flag("--in-process", port_options.in_process,
                  "Call a .so port in this process, unisolated (a crash ends the run)");
    sub->add_option("--timeout-ms", port_options.timeout_ms,
                    "Per-case time limit of a port outside this process, in milliseconds (> 0; "
                    "exec: adds 20 ms per MiB of tensors)")
        ->check(CLI::Range(int64_t{1}, INT64_MAX / 2, "a number of milliseconds > 0"))
        ->capture_default_str();
  };
  RunOptions options;
  std::string out_dir = "npuconf-report";
  std::string real_shapes_file;
  bool no_real_shapes = false;
  bool quiet = false;
  auto* run = app.add_subcommand("run", "Run the properties on a port and write the reports");
  run->add_option("--port", port_arg,
                  "reference (default), mutant:NAME, path/to/port.so, or 'exec:CMD ARGS' (a "
                  "subprocess, docs/port-protocol.md)");
  run->add_option("--profile", options.profiles, "Profile name or glob; repeatable (default: all)");
  std::vector<std::string> routine_globs, property_globs;
  run->add_option("--routine", routine_globs,
                  "Only routines matching this glob; repeatable (any matches)");
  run->add_option("--property", property_globs,
                  "Only properties matching this glob; repeatable (any matches)");
  run->add_option("--seed", options.seed, "Seed of the random cases")
      ->check(Unsigned64())
      ->capture_default_str();
  run->add_option("--cases", options.cases, "Random cases per property and profile")
      ->check(IntegerIn(0, 1000000))
      ->capture_default_str();
  run->add_option("--out", out_dir, "Directory for report.json, junit.xml, report.md, report.html")
      ->capture_default_str();
  auto* no_real = run->add_flag("--no-real-shapes", no_real_shapes,
                                "Leave out the real model shapes (matmul and conv, vectors/real/)");
  run->add_option("--real-shapes", real_shapes_file,
                  "Real shapes to use instead of the built-in ones: a file of "
                  "vectors/real/model_shapes.json's form (top-level \"models\": matmul "
                  "weights) and/or conv_shapes.json's (\"conv_models\": conv weights, feature "
                  "maps); a kind the file leaves out stays built in")
      ->excludes(no_real);
  run->add_option("--rc-reproduce", options.rc_reproduce,
                  "Replay a RapidCheck reproduce string from a report (with --property)");
  run->add_flag("--quiet", quiet, "No progress line or summary table (the verdict still)");
  std::string waivers_path, shard_text, selftest_path;
  bool strict_waivers = false;
  run->add_option("--selftest", selftest_path,
                  "A selftest.json (npuconf selftest --out DIR): the reports quote how many known "
                  "faults in the claimed routines this run's properties kill");
  run->add_option("--waivers", waivers_path,
                  "Known failures that do not fail the run, each with a reason and an expiry "
                  "date (JSON, docs/waivers.md); a property is waived only when every failing "
                  "case it met meets a waiver");
  run->add_flag("--strict-waivers", strict_waivers,
                "A waiver that matched no failure fails the run");
  std::string today_text;
  run->add_option("--today", today_text,
                  "YYYY-MM-DD: judge waiver expiry by this date instead of the clock's (UTC), "
                  "for tests of expiry; every report says the date and that it was set");
  run->add_option("--shard", shard_text,
                  "K/N: run shard K of N of the property x profile units, balanced by cost "
                  "(npuconf report merge joins the N reports)");
  options.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  run->add_option("--jobs", options.jobs, "Worker processes (default: the machine's cores)")
      ->check(IntegerIn(1, 1024))
      ->capture_default_str();
  add_port_options(run);
  int64_t determinism_every = kDefaultDeterminismEvery;
  int64_t max_case_bytes = static_cast<int64_t>(kMaxCaseBytes);
  const char* kMaxCaseBytesHelp =
      "Memory budget of one case in bytes (inputs + output capacities); a case over it is "
      "refused before allocation. It also bounds an isolated .so port's worker: its own memory "
      "may grow by this many bytes past what it starts with (RLIMIT_DATA; not in ASan builds), "
      "and a call failing there fails its case with 'exceeded the memory limit of N bytes'";
  auto add_budget = [&](CLI::App* sub) {
    sub->add_option("--max-case-bytes", max_case_bytes, kMaxCaseBytesHelp)
        ->check(IntegerIn(1, INT64_MAX))
        ->capture_default_str();
  };
  add_budget(run);
  const char* kDeterminismHelp =
      "Answer every Nth case (by a hash of the case) twice; differing answers fail it (0: off)";
  run->add_option("--determinism-every", determinism_every, kDeterminismHelp)
      ->check(IntegerIn(0, 1000000000))
      ->capture_default_str();

  std::string list_what = "properties";
  bool list_json = false;
  std::vector<std::string> list_profiles;
  auto* list = app.add_subcommand("list", "List profiles, routines, properties, ports or facts");
  list->add_option("what", list_what, "profiles | routines | properties | ports | facts");
  list->add_flag("--json", list_json, "routines (docs/routines.schema.json) or facts as JSON");
  list->add_option("--profile", list_profiles,
                   "list facts: only profiles matching this glob; repeatable");

  std::vector<std::string> case_words;
  std::string case_from;
  bool case_json = false;
  std::string dump_dir;
  auto* one_case = app.add_subcommand(
      "case", "Answer one case on a port: ROUTINE key=value ... (or --from FILE)");
  one_case->add_option("--port", port_arg,
                       "reference (default), mutant:NAME, path/to/port.so, or 'exec:CMD ARGS' (a "
                       "subprocess, docs/port-protocol.md)");
  one_case->add_option("--from", case_from,
                       "Read the case from a case JSON file (docs/case.schema.json); - for stdin");
  one_case->add_flag("--json", case_json, "Print the case and the answer as JSON");
  one_case->add_option("--dump", dump_dir,
                       "Write case.json, answer.json and every tensor as .npy into DIR");
  one_case->add_option("words", case_words, "ROUTINE profile=NAME key=value ...");
  add_port_options(one_case);
  add_budget(one_case);

  std::string property_name;
  std::vector<std::string> check_words;
  std::string check_from;
  auto* check = app.add_subcommand(
      "check", "Check one property on one case: PROPERTY ROUTINE key=value ... (or --from FILE)");
  check->add_option("--port", port_arg,
                    "reference (default), mutant:NAME, path/to/port.so, or 'exec:CMD ARGS' (a "
                    "subprocess, docs/port-protocol.md)");
  check->add_option("--from", check_from, "Read the case from a case JSON file; - for stdin");
  check->add_option("property", property_name, "Property name (npuconf list properties)")
      ->required();
  check->add_option("words", check_words, "ROUTINE profile=NAME key=value ...");
  add_port_options(check);
  check->add_option("--determinism-every", determinism_every, kDeterminismHelp)
      ->check(IntegerIn(0, 1000000000))
      ->capture_default_str();
  add_budget(check);

  if (std::string error = CheckSubcommand(
          argc, argv, {"run", "list", "case", "check", "vectors", "report", "selftest"});
      !error.empty()) {
    err << "npuconf: " << error << "\n";
    return kExitBadUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kExitConformant;
  } catch (const CLI::CallForVersion&) {
    // The kernel path is part of what ran: a bench or a report is read with it.
    out << NPUCONF_SUITE_VERSION << " (reference kernels: " << simd::IsaName(simd::ActiveIsa())
        << "; this CPU runs " << simd::SupportedIsaNames() << "; NPUCONF_ISA forces one)\n";
    return kExitConformant;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      app.exit(e, out, err);
      return kExitConformant;
    }
    err << "npuconf: " << e.what() << "\n";
    return kExitBadUsage;
  }

  if (*list) return List(list_what, list_json, list_profiles, out, err);
  // A malformed --shard is usage, found before the report directory is
  // touched (or locked: another run may hold it).
  if (*run && run->count("--shard") > 0) {
    int k = 0, n = 0;
    char slash = 0, extra = 0;
    std::istringstream in(shard_text);
    if (!(in >> k >> slash >> n) || slash != '/' || (in >> extra) || n < 1 || k < 1 || k > n ||
        n > report::kMaxShards) {
      err << "npuconf: --shard '" << shard_text
          << "' must read K/N with 1 <= K <= N <= " << report::kMaxShards << "\n";
      return kExitBadUsage;
    }
    options.shard_index = k;
    options.shard_count = n;
  }
  // A run removes the reports of an earlier run before anything can fail (a
  // bad claim, profile or port), so a stale green report never outlives it.
  if (*run && std::filesystem::is_directory(out_dir)) {
    if (std::string error = report::LockReportDir(out_dir); !error.empty()) {
      err << "npuconf: " << error << "\n";
      return kExitBadUsage;
    }
    if (std::string error = report::RemoveStaleReports(out_dir); !error.empty()) {
      err << "npuconf: " << error << "\n";
      return kExitBadUsage;
    }
  }
  options.routine_glob = JoinGlobs(routine_globs);
  options.property_glob = JoinGlobs(property_globs);
  if (!options.rc_reproduce.empty()) {
    if (std::string error = CheckRcReproduce(options.rc_reproduce); !error.empty()) {
      err << "npuconf: " << error << "\n";
      return kExitBadUsage;
    }
  }
  SetMaxCaseBytes(static_cast<uint64_t>(max_case_bytes));
  port_options.memory_limit_bytes = static_cast<uint64_t>(max_case_bytes);

  PortChoice choice = OpenPort(port_arg, port_options);
  if (!choice.port) {
    err << "npuconf: " << choice.error << "\n";
    return choice.exit_code;
  }
  // A sample of cases is answered twice (conformance/harness/determinism.h);
  // `case` shows one answer as it is.
  const AskTwicePort asking_twice(*choice.port,
                                  *one_case ? 0 : static_cast<uint64_t>(determinism_every));
  const Port& port = asking_twice;
  // Claims must mean something: a misspelt routine would check nothing.
  if (std::string error = ValidateClaims(port.claims(), BuiltinSuite().specs(), BuiltinProfiles());
      !error.empty()) {
    err << "npuconf: port " << port.name() << ": " << error << "\n";
    return kExitBadUsage;
  }

  try {
    if (*check && !BuiltinSuite().FindProperty(property_name)) {
      err << "npuconf: unknown property '" << property_name << "' (npuconf list properties)\n";
      return kExitBadUsage;
    }
    if (*one_case || *check) {
      Case c;
      const Profile* profile = nullptr;
      const int parsed = ParseCase(*one_case ? case_words : check_words,
                                   *one_case ? case_from : check_from, &c, &profile, err);
      if (parsed != kExitConformant) return parsed;
      if (*one_case) {
        // A case outside the port's claims is not the port's to answer (its
        // conditions included, breaker F14): `case` says so, as `check` skips it.
        const PortClaims claims = PortClaims::Parse(port.claims());
        const Profile claimed = ProfileAsClaimed(*profile, claims).value_or(*profile);
        if (std::string why; !InsideClaims(BuiltinSuite(), claims, c, claimed, &why)) {
          std::string on_routine;
          for (const std::string& claim : port.claims()) {
            if (claim.rfind(c.routine + ":", 0) == 0 || claim.rfind("*:", 0) == 0 ||
                claim.rfind("honours:", 0) == 0)
              on_routine += (on_routine.empty() ? "" : ", ") + claim;
          }
          err << "npuconf: port " << port.name() << " does not claim this case: " << why
              << " (its claims on the routine: " << (on_routine.empty() ? "none" : on_routine)
              << ")\n";
          return kExitBadUsage;
        }
        const Invocation inv = BuiltinSuite().Materialize(c, *profile);
        const Answer answer = port.Call(inv);
        if (!answer.fault.empty()) {  // crashed, exited, threw or hung: no answer to show
          err << "npuconf: port " << port.name() << " failed inside call: " << answer.fault << "\n";
          return kExitNonConformant;
        }
        const RoutineSpec& spec = *BuiltinSuite().FindRoutine(c.routine)->spec;
        if (case_json) {
          out << AnswerToJson(spec, inv, answer, port.name()).dump(2) << "\n";
        } else {
          PrintAnswer(spec, inv, answer, out);
        }
        if (!dump_dir.empty()) {
          if (std::string error = DumpAnswer(dump_dir, spec, inv, answer, port.name());
              !error.empty()) {
            err << "npuconf: --dump: " << error << "\n";
            return kExitBadUsage;
          }
          if (!case_json)
            out << "dumped: " << dump_dir
                << "/case.json, answer.json, inputs/*.npy, outputs/*.npy\n";
        }
        if (answer.call_result != NPUCONF_CALL_ANSWERED) {
          err << "npuconf: port " << port.name() << " did not answer the case ("
              << (answer.call_result == NPUCONF_CALL_UNCLAIMED ? "not claimed"
                                                               : "refused as malformed")
              << ")\n";
          return kExitBadUsage;
        }
        return kExitConformant;
      }
      const Property* property = BuiltinSuite().FindProperty(property_name);
      if (!property) {
        err << "npuconf: unknown property '" << property_name << "' (npuconf list properties)\n";
        return kExitBadUsage;
      }
      if (property->routine != c.routine) {
        err << "npuconf: property " << property->name << " checks " << property->routine << ", not "
            << c.routine << "\n";
        return kExitBadUsage;
      }
      const Verdict verdict = CheckOne(BuiltinSuite(), port, *property, *profile, c);
      const char* word = verdict.kind == Verdict::Kind::kPass   ? "pass"
                         : verdict.kind == Verdict::Kind::kSkip ? "skip"
                                                                : "FAIL";
      out << word << ": " << property->name << " on " << port.name() << ": " << c.ToText() << "\n";
      if (!verdict.message.empty()) out << "  " << verdict.message << "\n";
      return verdict.failed()                       ? kExitNonConformant
             : verdict.kind == Verdict::Kind::kSkip ? kExitNothingChecked
                                                    : kExitConformant;
    }

    // run
    if (!real_shapes_file.empty()) {
      std::ifstream file(real_shapes_file);
      if (!file) {
        err << "npuconf: cannot read --real-shapes file '" << real_shapes_file << "'\n";
        return kExitBadUsage;
      }
      std::stringstream text;
      text << file.rdbuf();
      try {
        std::string why;
        const auto doc = ParseJsonText(text.str(), &why);
        if (!doc) throw std::runtime_error("not JSON: " + why);
        UseRealShapesDocument(*doc);
      } catch (const std::exception& e) {
        err << "npuconf: --real-shapes file '" << real_shapes_file << "': " << e.what() << "\n";
        return kExitBadUsage;
      }
    }
    std::string profile_error;
    SelectProfiles(options.profiles, &profile_error);
    if (!profile_error.empty()) {
      err << "npuconf: " << profile_error << "\n";
      return kExitBadUsage;
    }
    bool any_property = false;
    for (const auto& p : BuiltinSuite().properties()) {
      any_property |=
          GlobMatch(options.property_glob, p.name) && GlobMatch(options.routine_glob, p.routine);
    }
    // Every glob given must select something: a misspelt alternative beside
    // a right one would otherwise narrow the run without a word.
    for (const auto& [option, globs, of_routine] :
         {std::tuple{"--routine", &routine_globs, true},
          std::tuple{"--property", &property_globs, false}}) {
      for (const std::string& given : *globs) {
        std::istringstream alternatives(given);  // GlobMatch's ',' alternatives, each on its own
        for (std::string glob; std::getline(alternatives, glob, ',');) {
          const bool selects =
              std::any_of(BuiltinSuite().properties().begin(), BuiltinSuite().properties().end(),
                          [&, of_routine = of_routine](const Property& p) {
                            return GlobMatch(glob, of_routine ? p.routine : p.name);
                          });
          if (!selects) {
            err << "npuconf: " << option << " '" << glob << "' matches no "
                << (of_routine ? "routine" : "property") << " (npuconf list "
                << (of_routine ? "routines" : "properties") << ")\n";
            return kExitBadUsage;
          }
        }
      }
    }
    if (!any_property) {
      err << "npuconf: no property matches --routine '" << options.routine_glob << "' --property '"
          << options.property_glob << "' (npuconf list properties)\n";
      return kExitBadUsage;
    }
    WaiverSet waivers;
    if (!waivers_path.empty()) {
      std::ifstream file(waivers_path);
      if (!file) {
        err << "npuconf: cannot read --waivers '" << waivers_path << "'\n";
        return kExitBadUsage;
      }
      std::stringstream text;
      text << file.rdbuf();
      waivers.path = waivers_path;
      waivers.strict = strict_waivers;
      if (std::string error = ParseWaivers(text.str(), BuiltinSuite(), &waivers); !error.empty()) {
        err << "npuconf: --waivers " << waivers_path << ": " << error << "\n";
        return kExitBadUsage;
      }
      options.waivers = &waivers;
    } else if (strict_waivers) {
      err << "npuconf: --strict-waivers needs --waivers FILE\n";
      return kExitBadUsage;
    }
    if (std::getenv("NPUCONF_TODAY")) {
      err << "npuconf: NPUCONF_TODAY is not read: waivers expire by the clock's date, or by "
             "--today DATE (which every report shows)\n";
    }
    if (!today_text.empty()) {
      if (std::string error = ParseToday(today_text, &options.today); !error.empty()) {
        err << "npuconf: " << error << "\n";
        return kExitBadUsage;
      }
      options.today_forced = true;
    }
    Selftest selftest;
    if (!selftest_path.empty()) {
      if (std::string error = ReadSelftest(selftest_path, &selftest); !error.empty()) {
        err << "npuconf: --selftest: " << error << "\n";
        return kExitBadUsage;
      }
    }
    // Fail on an unusable --out now, not after a run of several minutes.
    {
      std::error_code ec;
      std::filesystem::create_directories(out_dir, ec);
      if (ec) {
        err << "npuconf: cannot create --out '" << out_dir << "': " << ec.message() << "\n";
        return kExitBadUsage;
      }
      if (std::string error = report::LockReportDir(out_dir); !error.empty()) {
        err << "npuconf: " << error << "\n";
        return kExitBadUsage;
      }
      const std::string probe = out_dir + "/.npuconf-write-test";
      if (std::string error = report::WriteFileAtomically(probe, ""); !error.empty()) {
        err << "npuconf: cannot write reports into --out '" << out_dir << "': " << error << "\n";
        return kExitBadUsage;
      }
      std::filesystem::remove(probe, ec);
    }
    if (std::string error = report::RemoveStaleReports(out_dir); !error.empty()) {
      err << "npuconf: " << error << "\n";
      return kExitBadUsage;
    }
    options.real_shapes = !no_real_shapes;
    options.progress = !quiet;
    // A port path in a reproduce command must work from any directory.
    options.port_arg =
        port_arg.rfind("exec:", 0) != 0 && (port_arg.find('/') != std::string::npos ||
                                            port_arg.find(".so") != std::string::npos)
            ? std::filesystem::absolute(port_arg).lexically_normal().string()
            : port_arg;
    // What a reproducer needs of this run's options to replay a failure.
    if (max_case_bytes != static_cast<int64_t>(kMaxCaseBytes))
      options.replay_options.insert(options.replay_options.end(),
                                    {"--max-case-bytes", std::to_string(max_case_bytes)});
    if (determinism_every != static_cast<int64_t>(kDefaultDeterminismEvery))
      options.replay_options.insert(options.replay_options.end(),
                                    {"--determinism-every", std::to_string(determinism_every)});
    if (port_options.timeout_ms != PortOptions{}.timeout_ms)
      options.replay_options.insert(options.replay_options.end(),
                                    {"--timeout-ms", std::to_string(port_options.timeout_ms)});
    if (port_options.in_process) options.replay_options.push_back("--in-process");
    options.program = AbsoluteProgram(argc, argv);
    std::string command = "npuconf";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    interrupt::Install(": the reports in " + out_dir +
                       " hold the results so far (report.json \"complete\": false)\n");
    // Reports are rewritten after every result, so a runner that dies leaves
    // the results so far, marked incomplete.
    std::string fingerprint_error;
    const report::Fingerprint fingerprint = RunFingerprint({.port_arg = port_arg,
                                                            .seed = options.seed,
                                                            .cases = options.cases,
                                                            .real_shapes = options.real_shapes,
                                                            .real_shapes_file = real_shapes_file,
                                                            .max_case_bytes = MaxCaseBytes(),
                                                            .timeout_ms = port_options.timeout_ms,
                                                            .determinism_every = determinism_every,
                                                            .in_process = port_options.in_process,
                                                            .waivers_file = waivers_path},
                                                           port, &fingerprint_error);
    if (!fingerprint_error.empty()) {
      err << "npuconf: " << fingerprint_error << "\n";
      return kExitBadUsage;
    }
    std::string partial_error;
    options.on_result = [&](const report::RunReport& so_far) {
      report::RunReport partial = so_far;
      partial.command = command;
      partial.isa = simd::IsaName(simd::ActiveIsa());
      partial.fingerprint = fingerprint;
      if (std::string error = report::WriteReportsAtomically(partial, out_dir, false);
          !error.empty() && partial_error.empty()) {
        partial_error = error;
        err << "npuconf: " << error << "\n";
      }
    };
    {
      // An empty report first: a runner killed before its first result still
      // leaves a report.json that says so.
      report::RunReport empty;
      empty.suite_version = NPUCONF_SUITE_VERSION;
      empty.isa = simd::IsaName(simd::ActiveIsa());
      empty.port_name = port.name();
      empty.port_version = port.version();
      empty.seed = options.seed;
      empty.cases = options.cases;
      empty.max_case_bytes = MaxCaseBytes();
      empty.command = command;
      empty.fingerprint = fingerprint;
      if (std::string error = report::WriteReportsAtomically(empty, out_dir, false);
          !error.empty()) {
        err << "npuconf: " << error << "\n";
        return kExitBadUsage;
      }
    }
    InProcessPort::SetCrashReplayPrefix(options.program + " case --in-process" +
                                        (max_case_bytes != static_cast<int64_t>(kMaxCaseBytes)
                                             ? " --max-case-bytes " + std::to_string(max_case_bytes)
                                             : std::string()) +
                                        " --port " + ShellWord(options.port_arg) + " ");
    report::RunReport result = RunSuite(BuiltinSuite(), port, options);
    result.command = command;
    result.isa = simd::IsaName(simd::ActiveIsa());
    result.fingerprint = fingerprint;
    if (!selftest_path.empty()) result.kill_rate = QuoteKillRate(selftest, result);
    WriteFailureVectors(result, out_dir);
    // The reports first: a verdict is printed only once every file says it.
    const std::string write_error = report::WriteReportsAtomically(result, out_dir, true);
    if (!write_error.empty()) {
      err << "npuconf: " << write_error << "\n";
      err << "npuconf: the reports in " << out_dir
          << " are those of the run so far (INCOMPLETE); no verdict (exit " << kExitBadUsage
          << ")\n";
      return kExitBadUsage;
    }
    // --quiet leaves out the progress line and the table, never the verdict.
    if (!quiet) {
      out << report::SummaryTable(result);
    } else {
      out << "verdict: " << report::ToString(report::VerdictOf(result)) << " ("
          << report::CountsLine(result) << ")\n";
    }
    if (!quiet)
      out << "reports: " << out_dir << "/report.json, junit.xml, report.md, report.html\n";
    const int exit_code = report::RunExitCode(result);
    if (report::EmptyShard(result)) {
      err << "npuconf: this shard holds no claimed unit (shard " << result.shard_index << "/"
          << result.shard_count << "; the selection holds " << result.units_total
          << " units in all: more shards than units the port claims); npuconf report merge gives "
             "the "
             "run's verdict (exit 0)\n";
    }
    if (exit_code == kExitNothingChecked) {
      int too_large = 0;
      for (const auto& r : result.results) too_large += r.too_large;
      err << "npuconf: nothing was checked: ";
      if (too_large > 0) {
        err << too_large << " cases exceeded the memory budget (--max-case-bytes " << MaxCaseBytes()
            << ") and no other selected property is claimed by port " << port.name()
            << " and applicable";
      } else {
        err << "no selected property is claimed by port " << port.name()
            << " and applicable on the selected profiles";
      }
      err << " (exit " << kExitNothingChecked << ")\n";
    }
    return exit_code;
  } catch (const CaseError& e) {
    err << "npuconf: " << e.what() << "\n";
    return kExitBadUsage;
  } catch (const std::bad_alloc&) {
    err << "npuconf: out of memory\n";
    return kExitBadUsage;
  }
}

}  // namespace npuconf
