#include "conformance/harness/runner.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <set>

#include "conformance/harness/coverage.h"
#include "conformance/harness/determinism.h"
#include "conformance/harness/parallel.h"
#include "conformance/harness/waivers.h"
#include "conformance/ports/claims.h"
#include "core/case_json.h"
#include "core/json_text.h"
#include "generators/shapes.h"
#include "rapidcheck/detail/Configuration.h"
#include "rapidcheck/detail/Property.h"
#include "rapidcheck/detail/TestListener.h"

namespace npuconf {

// Quotes a word for a POSIX shell when it holds anything but safe characters
// (brackets would glob).
std::string ShellWord(const std::string& word) {
  if (word.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:=,/+@") ==
      std::string::npos) {
    return word;
  }
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

namespace {

uint64_t Fnv1a(const std::string& text, uint64_t seed) {
  uint64_t hash = 1469598103934665603ull ^ seed;
  for (unsigned char ch : text) {
    hash ^= ch;
    hash *= 1099511628211ull;
  }
  return hash;
}

class SilentListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// The readings checked: those of the profile as claimed (`profile`), each
// beside the built-in profile's default.
std::vector<report::ChoiceUsed> ChoicesOf(const Property& property, const Profile& profile,
                                          const PortClaims& claims) {
  std::vector<report::ChoiceUsed> out;
  const Profile* builtin = FindProfile(profile.name);
  for (const auto& name : property.choices) {
    if (const Choice* choice = profile.FindChoice(name)) {
      const Choice* original = builtin ? builtin->FindChoice(name) : nullptr;
      out.push_back({.name = choice->name,
                     .value = choice->value,
                     .profile_default = original ? original->value : choice->value,
                     .claimed = claims.Choice(name).has_value(),
                     .readings = choice->readings,
                     .source = choice->source});
    }
  }
  return out;
}

// Why a case is not checked: outside the port's claims (conditions included).
bool OutsideClaims(const PropertyContext& ctx, const Case& c) { return !ctx.Inside(c); }

bool PortClaimsAll(const Port& port, const Property& property, const std::string& profile) {
  if (!port.Claims(property.routine, profile)) return false;
  for (const auto& routine : property.also_needs) {
    if (!port.Claims(routine, profile)) return false;
  }
  return true;
}

// A Skip for a case over the memory budget: counted apart, never a failure.
const std::string kTooLargeMark = "skipped-too-large: ";
bool IsTooLarge(const Verdict& v) {
  return v.kind == Verdict::Kind::kSkip && v.message.rfind(kTooLargeMark, 0) == 0;
}

void CountTooLarge(const Case& c, report::PropertyResult* result) {
  ++result->too_large;
  if (result->too_large_cases.size() < report::kTooLargeListed)
    result->too_large_cases.push_back(c.ToText());
}

// Whether an unexpired waiver of the run names failing case `c` (waivers.h).
bool Waived(const RunOptions& options, const PropertyContext& ctx, const Property& property,
            const Case& c) {
  return options.waivers &&
         WaivesCase(*options.waivers, options.today, ctx.suite, property.name, ctx.profile.name, c);
}

// Records failing case `c`: `kind`, or "timeout" / "crash" when the port did
// not return from a call of it (the counts of *cost grew past `before`).
void RecordFailingCase(const std::string& kind, const Case& c, const CallCost& before,
                       const CallCost& cost, report::PropertyResult* result) {
  const std::string how = cost.timeouts > before.timeouts ? "timeout"
                          : cost.faults > before.faults   ? "crash"
                                                          : kind;
  result->failing_cases.push_back({.kind = how, .text = c.ToText(), .case_json = ToJson(c)});
}

Verdict SafeCheck(const Property& property, const PropertyContext& ctx, const Case& c,
                  report::PropertyResult* result) {
  Verdict verdict;
  try {
    verdict = property.check(ctx, c);
  } catch (const CaseTooLarge& e) {
    return Verdict::Skip(kTooLargeMark + e.what());
  } catch (const CaseError& e) {
    return Verdict::Fail(std::string("the suite built a malformed case: ") + e.what());
  }
  // Every checked case counts toward the coverage classes (coverage.h); one
  // left unchecked (not for its size) marks its classes so.
  if (verdict.kind != Verdict::Kind::kSkip) {
    CountCoverage(ctx.suite, ctx.profile, c, &result->coverage_hits);
  } else if (!IsTooLarge(verdict)) {
    for (auto& name : ClassesOf(ctx.suite, ctx.profile, c))
      result->coverage_unchecked[c.routine].insert(std::move(name));
  }
  return verdict;
}

// A failure of `c`, answered a second time (conformance/harness/determinism.h)
// and, when that repeats it, once more in a fresh port process: a port that
// keeps state between calls or reads memory it never initialised fails the
// same way twice in one long-lived process and passes when its reproducer
// runs. Either difference marks the failure (result->non_deterministic) and
// *reproduce_note says a replay may pass. After a timeout nothing is asked:
// each further hang would cost another --timeout-ms.
Verdict Confirmed(const Property& property, const PropertyContext& ctx, const Case& c,
                  const Verdict& first, report::PropertyResult* result,
                  std::string* reproduce_note) {
  reproduce_note->clear();
  if (ctx.cost->timeouts > 0) {
    result->timed_out = true;
    Verdict out = first;
    out.message += " (not asked again: the call timed out)";
    return out;
  }
  bool non_deterministic = false;
  report::PropertyResult scratch;  // the second answer counts toward no coverage class
  Verdict out = ConfirmFailure([&] { return SafeCheck(property, ctx, c, &scratch); }, first,
                               &non_deterministic);
  if (!non_deterministic && ctx.cost->timeouts == 0 && ctx.port.Restart()) {
    const Verdict fresh = SafeCheck(property, ctx, c, &scratch);
    if (!fresh.failed()) {
      non_deterministic = true;
      out.message =
          "possibly non-deterministic: the case failed twice in the run and passed when replayed "
          "in a fresh port process (a port that keeps state between calls or reads memory it "
          "never initialised does this); the failure: " +
          first.message;
    } else if (fresh.message != first.message) {
      non_deterministic = true;
      out.message =
          "possibly non-deterministic: replayed in a fresh port process the case failed another "
          "way; in the run: " +
          first.message + "; in a fresh process: " + fresh.message;
    }
  }
  result->timed_out = ctx.cost->timeouts > 0;
  result->non_deterministic = non_deterministic;
  if (non_deterministic) *reproduce_note = "  # non-deterministic: a replay may pass";
  return out;
}

// The property's cases drawn inside the port's claims: the generator once per
// claim naming the routine on this profile, each drawing inside that claim's
// conditions (PropertyContext::domain), one of them picked per case. A case a
// generator could not keep inside is still discarded below.
// Whether `generator` draws a case inside the claims within a few tries (a
// fixed seed, so the run stays reproducible): a claim whose domain the
// property's generator cannot reach (a 3-D-only property and a claim naming
// only 4-D formats) is left out of ClaimedGenerator, rather than have its
// share of the draws discarded until the property gives up.
bool Reaches(const rc::Gen<Case>& generator, const PropertyContext& ctx) {
  constexpr int kTries = 24;
  rc::Random random(0x7265616368);  // "reach"
  for (int i = 0; i < kTries; ++i) {
    try {
      if (ctx.Inside(generator(random.split(), rc::kNominalSize).value())) return true;
    } catch (const std::exception&) {
      // A draw the generator itself refuses: try the next.
    }
  }
  return false;
}

rc::Gen<Case> ClaimedGenerator(const Property& property, const PropertyContext& ctx,
                               const std::vector<CaseDomain>& domains) {
  if (domains.size() <= 1) {
    PropertyContext one = ctx;
    one.domain = domains.empty() ? nullptr : &domains.front();
    return property.generator(one);
  }
  std::vector<std::pair<uint32_t, rc::Gen<Case>>> pieces, reaching;
  for (const CaseDomain& domain : domains) {
    PropertyContext one = ctx;
    one.domain = &domain;
    pieces.push_back({1, property.generator(one)});
    if (Reaches(pieces.back().second, one)) reaching.push_back(pieces.back());
  }
  return gen::WeightedOneOf(reaching.empty() ? std::move(pieces) : std::move(reaching));
}

// Coverage witnesses (issue 15 item 1): cases drawn from the property's
// generator inside the claims with a fixed seed (never --seed's), each the first
// to reach a class of its routine that no explicit case and no earlier witness
// reaches. They run as explicit cases, so every class the claims let the
// generator reach is checked whatever the seed; their classes are admitted
// (result->coverage_admitted), which makes a required class required.
constexpr int kCoverageDraws = 300;
constexpr uint64_t kCoverageSeed = 0x636f766572616765;  // "coverage"

std::vector<Case> DrawCoverageWitnesses(const Property& property, const PropertyContext& ctx,
                                        const std::vector<CaseDomain>& domains,
                                        report::PropertyResult* result) {
  std::vector<Case> out;
  if (!ctx.suite.FindCoverage(property.routine)) return out;
  const rc::Gen<Case> generator = ClaimedGenerator(property, ctx, domains);
  rc::Random random(Fnv1a(property.name + "@" + ctx.profile.name, kCoverageSeed));
  for (int i = 0; i < kCoverageDraws; ++i) {
    Case c;
    try {
      c = generator(random.split(), i % 101).value();
    } catch (const std::exception&) {
      continue;  // a generator that cannot draw here draws nothing for coverage
    }
    if (!ctx.Inside(c)) continue;
    std::set<std::string>& admitted = result->coverage_admitted[c.routine];
    bool fresh = false;
    for (auto& name : ClassesOf(ctx.suite, ctx.profile, c)) fresh |= admitted.insert(name).second;
    if (fresh) out.push_back(std::move(c));
  }
  return out;
}

// Returns whether the failure it leaves in *result is one a waiver names.
bool RandomPhase(const Property& property, const PropertyContext& ctx, const RunOptions& options,
                 const std::vector<CaseDomain>& domains, report::PropertyResult* result) {
  const std::string id = property.name + "@" + ctx.profile.name;
  std::optional<Case> last_failure;
  std::string last_message;
  nlohmann::json last_evidence;
  // Failures a waiver names, met while drawing: recorded, and the draw goes
  // on (a pass to RapidCheck), so that one no waiver names is still met and
  // shrunk; the first leads the result when none is.
  std::optional<Case> waived_failure;
  std::string waived_message;
  nlohmann::json waived_evidence;
  int waived_failures = 0;
  bool failed_once = false;  // after the first unwaived failure, RapidCheck shrinks
  auto generator = ClaimedGenerator(property, ctx, domains);
  auto testable = [&] {
    // After a timeout the port is asked nothing more: every shrinking step
    // is rejected, and the first hanging case stays the counterexample.
    if (ctx.cost->timeouts > 0) RC_DISCARD("the port timed out on an earlier case");
    const Case c = *generator;
    if (OutsideClaims(ctx, c)) {
      ++result->outside_claims;
      RC_DISCARD("outside the port's claims");
    }
    const CallCost before = *ctx.cost;
    const Verdict verdict = SafeCheck(property, ctx, c, result);
    if (IsTooLarge(verdict)) CountTooLarge(c, result);
    if (verdict.IsOutsideClaims()) ++result->outside_claims;
    if (verdict.kind == Verdict::Kind::kSkip) RC_DISCARD(verdict.message);
    if (verdict.failed() && Waived(options, ctx, property, c)) {
      // While shrinking an unwaived failure, a waived step is no way to it.
      if (failed_once) return;
      RecordFailingCase("random", c, before, *ctx.cost, result);
      if (!waived_failure) {
        waived_failure = c;
        waived_message = verdict.message;
        waived_evidence = verdict.evidence;
      }
      ++waived_failures;
      return;
    }
    if (verdict.failed()) {
      if (!failed_once) RecordFailingCase("random", c, before, *ctx.cost, result);
      failed_once = true;
      last_failure = c;
      last_message = verdict.message;
      last_evidence = verdict.evidence;
      RC_FAIL(verdict.message);
    }
  };
  rc::detail::TestMetadata metadata{id, property.name};
  rc::detail::TestParams params;
  params.seed = Fnv1a(id, options.seed);
  params.maxSuccess = options.cases;
  params.maxSize = 100;
  params.maxDiscardRatio = 10;
  std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map;
  if (!options.rc_reproduce.empty()) {
    reproduce_map = rc::detail::configFromString(options.rc_reproduce).reproduce;
  }
  SilentListener listener;
  const rc::detail::TestResult outcome = rc::detail::checkProperty(
      rc::detail::toProperty(testable), metadata, params, listener, reproduce_map);
  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (outcome.match(success) && waived_failure) {
    // Every failure met was one a waiver names: the first leads (ApplyWaivers
    // then judges every recorded case).
    result->random_cases = success.numSuccess;
    result->outcome = report::Outcome::kFail;
    result->message = waived_message + " (" + std::to_string(waived_failures) +
                      " random cases failed, each named by a waiver; the draw went on past them)";
    result->counterexample = waived_failure->ToText();
    result->counterexample_case = ToJson(*waived_failure);
    result->evidence = waived_evidence;
    result->reproduce = ReproduceCommand(options.program, options.port_arg, property.name,
                                         *waived_failure, options.replay_options);
    return true;
  } else if (outcome.match(success)) {
    result->random_cases = success.numSuccess;
  } else if (outcome.match(failure)) {
    result->outcome = report::Outcome::kFail;
    result->random_cases = failure.numSuccess + 1;
    result->message = last_message.empty() ? failure.description : last_message;
    if (last_failure) {
      std::string note;
      result->message =
          Confirmed(property, ctx, *last_failure, Verdict::Fail(result->message), result, &note)
              .message;
      result->counterexample = last_failure->ToText();
      result->counterexample_case = ToJson(*last_failure);
      if (result->failing_cases.empty() ||
          result->failing_cases.back().text != result->counterexample) {
        result->failing_cases.push_back({.kind = result->timed_out ? "timeout" : "shrunk",
                                         .text = result->counterexample,
                                         .case_json = result->counterexample_case});
      }
      result->evidence = last_evidence;
      result->reproduce = ReproduceCommand(options.program, options.port_arg, property.name,
                                           *last_failure, options.replay_options) +
                          note;
    }
    rc::detail::Configuration config;
    config.reproduce[id] = failure.reproduce;
    result->rapidcheck_reproduce = rc::detail::configToMinimalString(config);
  } else if (outcome.match(gave_up)) {
    result->random_cases = gave_up.numSuccess;
    // A random phase that discards nearly everything checked too little to
    // pass, whatever the reason (claims the generators cannot draw inside):
    // a tenth of --cases must have held.
    const int64_t enough = std::max<int64_t>(1, options.cases / 10);
    if (result->outside_claims > 0 && gave_up.numSuccess < enough &&
        (gave_up.numSuccess > 0 || result->explicit_cases > 0)) {
      result->outcome = report::Outcome::kGaveUp;
      result->message = "gave up: only " + std::to_string(gave_up.numSuccess) + " of " +
                        std::to_string(options.cases) + " random cases lay inside the port's " +
                        "claims (" + std::to_string(result->outside_claims) +
                        " drawn outside them); a pass needs " + std::to_string(enough) +
                        " (a tenth of --cases)";
    } else if (result->outside_claims > 0 &&
               (gave_up.numSuccess > 0 || result->explicit_cases > 0)) {
      // The port narrowed its claims and the cases inside them held: a pass
      // for what it claims (the rest is counted in outside_claims).
      result->message =
          std::to_string(result->explicit_cases) + " explicit and " +
          std::to_string(gave_up.numSuccess) + " random cases inside the port's claims held; " +
          std::to_string(result->outside_claims) + " generated cases lay outside them";
    } else if (result->outside_claims > 0) {
      // The port narrowed its claims: what it leaves out is not claimed, neither failed nor passed.
      result->outcome = report::Outcome::kNotClaimed;
      result->message = "gave up after " + std::to_string(gave_up.numSuccess) +
                        " random cases: " + std::to_string(result->outside_claims) +
                        " generated cases lay outside the port's claims";
    } else if (result->too_large > 0) {
      result->outcome = report::Outcome::kTooLarge;
      result->message = "gave up after " + std::to_string(gave_up.numSuccess) +
                        " random cases: " + std::to_string(result->too_large) +
                        " generated cases exceeded the memory budget (--max-case-bytes)";
    } else {
      result->outcome = report::Outcome::kGaveUp;
      result->message = "gave up: " + gave_up.description;
    }
  } else if (outcome.match(error)) {
    result->outcome = report::Outcome::kFail;
    result->message = "RapidCheck error: " + error.description;
  }
  return false;
}

// `ctx.profile` is the run's profile as claimed: its readings are the ones checked.
report::PropertyResult RunOne(const Port& port, const Property& property,
                              const PropertyContext& outer, const RunOptions& options) {
  CallCost cost;
  PropertyContext ctx = outer;
  ctx.cost = &cost;
  const PortClaims& claims = *ctx.claims;
  // What the claims naming the routine here admit: generators draw inside them.
  const std::vector<CaseDomain> domains =
      claims.Domains(*ctx.suite.FindRoutine(property.routine)->spec, ctx.profile.name);
  report::PropertyResult result;
  result.property = property.name;
  result.routine = property.routine;
  result.profile = ctx.profile.name;
  result.description = property.description;
  result.basis = property.basis;
  result.seed = options.seed;
  result.choices = ChoicesOf(property, ctx.profile, claims);
  const auto start = std::chrono::steady_clock::now();
  if (!ctx.profile.verified) {
    result.outcome = report::Outcome::kNotCovered;
    result.message = "profile facts are not public; nothing is checked against invented numbers";
  } else if (std::string why = property.not_covered ? property.not_covered(ctx.profile) : "";
             !why.empty()) {
    result.outcome = report::Outcome::kNotCovered;
    result.message = why;
  } else if (std::string why = property.not_applicable ? property.not_applicable(ctx.profile) : "";
             !why.empty()) {
    result.outcome = report::Outcome::kNotApplicable;
    result.message = why;
  } else if (!PortClaimsAll(port, property, ctx.profile.name)) {
    result.outcome = report::Outcome::kNotClaimed;
    result.message = "port does not claim " + property.routine + " on " + ctx.profile.name;
  } else {
    // One explicit case, unless it lies outside the claims. A failing case is
    // recorded and the cases go on (every failing case must meet a waiver for
    // the result to be waived); the first failure no waiver names leads the
    // result. False once a call timed out: one more case could cost one more.
    bool lead_waived = false;
    auto check_explicit = [&](const Case& c, const char* kind) {
      const CallCost before = cost;
      if (OutsideClaims(ctx, c)) {
        ++result.outside_claims;
        return true;
      }
      const Verdict verdict = SafeCheck(property, ctx, c, &result);
      if (IsTooLarge(verdict)) {
        CountTooLarge(c, &result);
        return true;
      }
      if (verdict.IsOutsideClaims()) {
        ++result.outside_claims;
        return true;
      }
      if (verdict.kind == Verdict::Kind::kSkip) {
        ++result.explicit_skipped;
        return true;
      }
      ++result.explicit_cases;
      if (!verdict.failed()) return true;
      RecordFailingCase(kind, c, before, cost, &result);
      const bool waived = Waived(options, ctx, property, c);
      if (result.outcome == report::Outcome::kFail && !(lead_waived && !waived))
        return cost.timeouts == 0;
      lead_waived = waived;
      std::string note;
      result.outcome = report::Outcome::kFail;
      result.message = Confirmed(property, ctx, c, verdict, &result, &note).message;
      result.counterexample = c.ToText();
      result.counterexample_case = ToJson(c);
      result.evidence = verdict.evidence;
      result.reproduce = ReproduceCommand(options.program, options.port_arg, property.name, c,
                                          options.replay_options) +
                         note;
      return cost.timeouts == 0;
    };
    if (options.rc_reproduce.empty()) {
      const std::vector<Case> cases =
          property.explicit_cases ? property.explicit_cases(ctx) : std::vector<Case>{};
      // The classes the claims admit: those of the explicit cases inside them
      // (real shapes aside, so that --no-real-shapes requires the same), and
      // of the coverage witnesses drawn below.
      PropertyContext no_real = ctx;
      no_real.real_shapes = false;
      const std::vector<Case> witnesses =
          property.explicit_cases && ctx.real_shapes ? property.explicit_cases(no_real) : cases;
      for (const Case& c : witnesses) {
        if (!ctx.Inside(c)) continue;
        for (auto& name : ClassesOf(ctx.suite, ctx.profile, c))
          result.coverage_admitted[c.routine].insert(std::move(name));
      }
      const bool going = std::all_of(cases.begin(), cases.end(),
                                     [&](const Case& c) { return check_explicit(c, "explicit"); });
      if (going && property.generator) {
        for (const Case& c : DrawCoverageWitnesses(property, ctx, domains, &result)) {
          ++result.coverage_witnesses;
          if (!check_explicit(c, "witness")) break;
        }
      }
    }
    // A timeout ends the property: one more case could cost one more.
    if (property.generator && options.cases > 0 && cost.timeouts == 0) {
      if (result.outcome == report::Outcome::kPass) {
        RandomPhase(property, ctx, options, domains, &result);
      } else {
        // An explicit case failed: the random phase still runs, because what
        // RapidCheck shrinks to is the smallest input that shows the failure.
        // The report leads with it and keeps the explicit case beside it.
        report::PropertyResult shrunk = result;
        shrunk.outcome = report::Outcome::kPass;
        const bool shrunk_waived = RandomPhase(property, ctx, options, domains, &shrunk);
        // The shrunk failure leads unless a waiver names it and not the explicit one.
        if (shrunk.outcome == report::Outcome::kFail && !shrunk.counterexample.empty() &&
            (!shrunk_waived || lead_waived)) {
          shrunk.first_explicit_failure = result.counterexample;
          result = std::move(shrunk);
        } else {
          result.failing_cases = std::move(shrunk.failing_cases);  // what the draw met
        }
      }
    }
    // A property that applies here but checked nothing is no pass; when the
    // port's narrowed claims left every case out, it is not claimed.
    if (result.outcome == report::Outcome::kPass && result.explicit_cases == 0 &&
        result.random_cases == 0 && result.outside_claims > 0) {
      result.outcome = report::Outcome::kNotClaimed;
      result.message = "every case (" + std::to_string(result.outside_claims) +
                       ") lay outside the port's claims";
    } else if (result.outcome == report::Outcome::kPass && result.explicit_cases == 0 &&
               result.random_cases == 0 && result.too_large > 0) {
      result.outcome = report::Outcome::kTooLarge;
      result.message = std::to_string(result.too_large) +
                       " cases exceeded the memory budget (--max-case-bytes " +
                       std::to_string(MaxCaseBytes()) + "); none was checked";
    } else if (result.outcome == report::Outcome::kPass && result.explicit_cases == 0 &&
               result.random_cases == 0) {
      result.outcome = report::Outcome::kVacuous;
      result.message = "no case was checked (" + std::to_string(result.explicit_skipped) +
                       " explicit cases skipped, no random case held)";
    }
  }
  result.successful_calls = cost.successes;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

// The result of a unit whose worker process died while checking it.
report::PropertyResult DiedResult(const Property& property, const Profile& profile,
                                  const PortClaims& claims, const RunOptions& options,
                                  const std::string& why) {
  report::PropertyResult result;
  result.property = property.name;
  result.routine = property.routine;
  result.profile = profile.name;
  result.description = property.description;
  result.seed = options.seed;
  result.choices = ChoicesOf(property, profile, claims);
  result.outcome = report::Outcome::kFail;
  result.message = why;
  return result;
}

// An in-process port that crashed a worker left the case's JSON behind
// (InProcessPort::SetCrashNoteFd): the failure gets it as its counterexample,
// with a reproducer, as any other failure.
void AddCrashedCase(const std::string& crash_case_json, const Property& property,
                    const RunOptions& options, report::PropertyResult* result) {
  if (crash_case_json.empty()) return;
  const auto doc = ParseJsonText(crash_case_json, nullptr);
  Case c;
  if (!doc || !CaseFromJson(*doc, &c).empty()) return;
  result->message += "; the port crashed on " + c.ToText();
  result->failing_cases.push_back({.kind = "crash", .text = c.ToText(), .case_json = *doc});
  if (c.routine == property.routine) {
    result->counterexample = c.ToText();
    result->counterexample_case = *doc;
    result->reproduce = ReproduceCommand(options.program, options.port_arg, property.name, c,
                                         options.replay_options);
    return;
  }
  // A further call the property makes (the way back of a round trip, whose
  // input is the first call's output): not a case of the property, so `check`
  // cannot take it (breaker F9). `case` sends that call alone, with seeded input.
  result->message += " (a further call of the property, not its case)";
  std::string command = ShellWord(options.program) + " case --in-process --port " +
                        ShellWord(options.port_arg) + " " + ShellWord(c.routine);
  if (!c.profile.empty()) command.append(" ").append(ShellWord("profile=" + c.profile));
  for (const auto& [key, value] : c.params)
    command.append(" ").append(ShellWord(key + "=" + value.ToText()));
  result->reproduce = command +
                      "  # the further call alone; its input is seeded here, in the run it was "
                      "the first call's output";
}

}  // namespace

bool GlobMatch(const std::string& pattern, const std::string& text) {
  size_t start = 0;
  for (;;) {
    const size_t comma = pattern.find(',', start);
    const std::string one =
        pattern.substr(start, comma == std::string::npos ? comma : comma - start);
    if (fnmatch(one.c_str(), text.c_str(), 0) == 0) return true;
    if (comma == std::string::npos) return false;
    start = comma + 1;
  }
}

std::vector<const Profile*> SelectProfiles(const std::vector<std::string>& names,
                                           std::string* error) {
  std::vector<const Profile*> out;
  if (names.empty()) {
    for (const auto& profile : BuiltinProfiles()) out.push_back(&profile);
    return out;
  }
  for (const auto& name : names) {
    bool any = false;
    for (const auto& profile : BuiltinProfiles()) {
      if (GlobMatch(name, profile.name)) {
        out.push_back(&profile);
        any = true;
      }
    }
    if (!any) {
      *error = "unknown profile '" + name + "' (npuconf list profiles)";
      return {};
    }
  }
  return out;
}

std::string ReproduceCommand(const std::string& program, const std::string& port_arg,
                             const std::string& property, const Case& c,
                             const std::vector<std::string>& replay_options) {
  std::string command = ShellWord(program) + " check";
  for (const auto& word : replay_options) command.append(" ").append(ShellWord(word));
  command.append(" --port ")
      .append(ShellWord(port_arg))
      .append(" ")
      .append(ShellWord(property))
      .append(" ")
      .append(ShellWord(c.routine));
  // append, not " " + std::string: GCC 12 warns falsely on the latter (-Wrestrict, PR 105329).
  if (!c.profile.empty()) command.append(" ").append(ShellWord("profile=" + c.profile));
  for (const auto& [key, value] : c.params) {
    command.append(" ").append(ShellWord(key + "=" + value.ToText()));
  }
  return command;
}

Verdict CheckOne(const Suite& suite, const Port& port, const Property& property,
                 const Profile& profile, const Case& c) {
  const PortClaims claims = PortClaims::Parse(port.claims());
  const Profile claimed = ProfileAsClaimed(profile, claims).value_or(profile);
  const std::vector<const Profile*> profiles = {&claimed};
  const PropertyContext ctx{suite, port, claimed, profiles, true, &claims};
  if (!PortClaimsAll(port, property, profile.name)) {
    return Verdict::Skip("port " + port.name() + " does not claim " + property.routine + " on " +
                         profile.name);
  }
  if (OutsideClaims(ctx, c)) {
    return Verdict::Skip("the case lies outside the claims of port " + port.name());
  }
  return property.check(ctx, c);
}

namespace {

// The property x profile units one after another in this process (--jobs 1);
// `add` takes each result.
void RunUnitsHere(const Suite& suite, const Port& port, const PortClaims& claims,
                  const RunOptions& options, const std::vector<const Profile*>& profiles,
                  const std::vector<std::pair<const Property*, const Profile*>>& work,
                  const std::function<void(size_t, report::PropertyResult)>& add,
                  const report::RunReport& run) {
  const bool tty = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < work.size(); ++i) {
    const auto& [property, profile] = work[i];
    if (options.progress) {
      int failures = 0;
      for (const auto& r : run.results) failures += report::IsFailure(r.outcome);
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cerr << (tty ? "\r\033[K" : "")
                << ProgressLine(i, work.size(), failures,
                                i ? elapsed * static_cast<double>(work.size() - i) / i : 0,
                                property->name + "@" + profile->name)
                << (tty ? "" : "\n") << std::flush;
    }
    const PropertyContext ctx{suite, port, *profile, profiles, options.real_shapes, &claims};
    add(i, RunOne(port, *property, ctx, options));
  }
  if (options.progress && tty) std::cerr << "\r\033[K" << std::flush;
}

// A short digest of the unit names in order: shards of one selection agree on it.
std::string SelectionDigest(const std::vector<std::pair<const Property*, const Profile*>>& work) {
  uint64_t hash = 0;
  for (const auto& [property, profile] : work)
    hash = Fnv1a(property->name + "@" + profile->name + ";", hash);
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace

std::vector<int> AssignShards(const std::vector<double>& costs, int count) {
  std::vector<size_t> order(costs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return costs[a] > costs[b]; });
  std::vector<double> load(static_cast<size_t>(std::max(count, 1)), 0.0);
  std::vector<int> shard(costs.size(), 0);
  for (size_t i : order) {
    const size_t least =
        static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shard[i] = static_cast<int>(least);
    load[least] += costs[i];
  }
  return shard;
}

report::RunReport RunSuite(const Suite& suite, const Port& port, const RunOptions& given) {
  RunOptions options = given;
  if (options.today.empty()) options.today = TodayUtc();
  report::RunReport run;
  run.today = options.today;
  run.today_forced = options.today_forced;
  run.suite_version = NPUCONF_SUITE_VERSION;
  run.port_name = port.name();
  run.port_version = port.version();
  run.port_claims = port.claims();
  run.seed = options.seed;
  run.cases = options.cases;
  run.max_case_bytes = MaxCaseBytes();
  std::string error;
  const std::vector<const Profile*> selected = SelectProfiles(options.profiles, &error);
  for (const Profile* p : selected) run.profiles.push_back(p->name);
  // Every profile as the port's claims make it, built once: the claimed
  // readings' facts applied (ProfileAsClaimed); what every property of the run sees.
  const PortClaims claims = PortClaims::Parse(port.claims());
  std::vector<Profile> claimed;
  claimed.reserve(selected.size());
  for (const Profile* p : selected) claimed.push_back(ProfileAsClaimed(*p, claims).value_or(*p));
  std::vector<const Profile*> profiles;
  for (const Profile& p : claimed) profiles.push_back(&p);

  std::vector<std::pair<const Property*, const Profile*>> work;
  for (const auto& property : suite.properties()) {
    if (!GlobMatch(options.property_glob, property.name) ||
        !GlobMatch(options.routine_glob, property.routine)) {
      continue;
    }
    const std::string& vendor = suite.FindRoutine(property.routine)->spec->vendor;
    for (const Profile* profile : profiles) {
      if (profile->family == vendor) work.emplace_back(&property, profile);
    }
  }
  // --shard K/N: the units of shard K only, each tagged with its place in the
  // whole selection so that `report merge` restores the unsharded order.
  std::vector<int> unit_of(work.size());
  for (size_t i = 0; i < work.size(); ++i) unit_of[i] = static_cast<int>(i);
  if (options.shard_count > 0) {
    run.shard_index = options.shard_index;
    run.shard_count = options.shard_count;
    run.units_total = static_cast<int>(work.size());
    run.selection = SelectionDigest(work);
    // A unit the port does not claim costs nothing (its result is "not
    // claimed"): the balance is of the claimed units, so that a narrowed
    // port's shards each check something.
    std::vector<double> costs;
    for (const auto& [property, profile] : work) {
      costs.push_back(claims.Claims(property->routine, profile->name)
                          ? EstimatedUnitSeconds(property->name, profile->name, options.real_shapes)
                          : 0.0);
    }
    const std::vector<int> shard = AssignShards(costs, options.shard_count);
    std::vector<std::pair<const Property*, const Profile*>> mine;
    std::vector<int> mine_units;
    for (size_t i = 0; i < work.size(); ++i) {
      if (shard[i] != options.shard_index - 1) continue;
      mine.push_back(work[i]);
      mine_units.push_back(static_cast<int>(i));
    }
    work = std::move(mine);
    unit_of = std::move(mine_units);
  }
  // Every result goes through here as its unit ends (in any order with
  // --jobs): waivers, then into its place in report order, then the reports
  // so far, so that a stopped run keeps every result it finished.
  std::vector<bool> waiver_used(options.waivers ? options.waivers->entries.size() : 0, false);
  const std::string& today = options.today;
  std::vector<size_t> placed;  // the unit index of each of run.results, ascending
  auto add = [&](size_t i, report::PropertyResult result) {
    if (options.shard_count > 0) result.unit = unit_of[i];
    if (options.waivers)
      ApplyWaiversKeepingRaw(*options.waivers, today, suite, &result, &waiver_used);
    const auto at = std::upper_bound(placed.begin(), placed.end(), i);
    run.results.insert(run.results.begin() + (at - placed.begin()), std::move(result));
    placed.insert(at, i);
    if (options.on_result) options.on_result(run);
  };
  if (options.jobs > 1 && work.size() > 1) {
    std::vector<PoolUnit> units;
    for (const auto& [property, profile] : work) {
      units.push_back({property->name + "@" + profile->name,
                       EstimatedUnitSeconds(property->name, profile->name, options.real_shapes)});
    }
    auto run_unit = [&](size_t i) {
      const PropertyContext ctx{suite,  port, *work[i].second, profiles, options.real_shapes,
                                &claims};
      return RunOne(port, *work[i].first, ctx, options);
    };
    auto died = [&](size_t i, const std::string& why, const std::string& crash_case_json) {
      report::PropertyResult result =
          DiedResult(*work[i].first, *work[i].second, claims, options,
                     "the runner process checking " + units[i].name + " died: " + why);
      AddCrashedCase(crash_case_json, *work[i].first, options, &result);
      return result;
    };
    const PoolOptions pool{.jobs = options.jobs,
                           .progress = options.progress,
                           .on_worker_start = [](int fd) { InProcessPort::SetCrashNoteFd(fd); }};
    RunUnitsInWorkers(units, pool, run_unit, died, add);
  } else {
    RunUnitsHere(suite, port, claims, options, profiles, work, add, run);
  }
  run.coverage_filter = CoverageFilterReason(options);
  if (options.shard_count > 0) {
    // A shard sees part of each routine's units: the gate (and the valid-case
    // rule) run on the merge.
    run.coverage_gate = "deferred: shard " + std::to_string(options.shard_index) + "/" +
                        std::to_string(options.shard_count) + " (npuconf report merge applies it)";
  } else {
    ApplyValidCaseRule(&run);
    const size_t before = run.results.size();
    ApplyCoverageGate(suite, run.coverage_filter, profiles, &run);
    for (size_t i = before; i < run.results.size() && options.waivers; ++i)
      ApplyWaiversKeepingRaw(*options.waivers, today, suite, &run.results[i], &waiver_used);
  }
  if (options.waivers) FinishWaivers(*options.waivers, waiver_used, options.shard_count > 0, &run);
  // The reports again when the gate, the waivers or the shard added to them.
  if (options.on_result && (!run.coverage.empty() || options.waivers || options.shard_count > 0))
    options.on_result(run);
  return run;
}

}  // namespace npuconf
