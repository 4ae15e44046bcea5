// bench_ratio: median(numerator) / median(denominator) from one Google Benchmark
// JSON file, per matched pair of runs, optionally enforced against --max.
//
//   bench_ratio --json out.json --numerator 'BM_PackNdToNz<fp16>/*'
//               --denominator 'BM_Memcpy/*' [--max 2.0 | --min 0.25] [--only K1,K2]
//               [--time real|cpu] [--markdown [--label TEXT] [--no-header]]
//
// A pattern is a run name (e.g. `BM_Memcpy/67108864`) in which one `*` may
// stand for any text; a numerator run and a denominator run are paired when
// their `*` texts are equal (typically the size argument). Without `*` the
// patterns name exactly one pair. The median is that of the run's repetitions
// (computed from per-repetition entries when present, else the `_median`
// aggregate), so both sides come from the same process and the same run.
//
// --max / --min bound every ratio from above / below (a time ratio against
// memcpy is "at most", a yardstick's time over the routine's, i.e. a
// throughput fraction, "at least"); --only keeps the pairs whose `*` text is
// one of the listed keys. --label names the rows in a Markdown table and
// --no-header leaves its header out, so one table can collect many calls.
//
// Exit: 0 all ratios within the bound (or no bound), 1 some ratio outside it,
// 2 bad usage or input (unreadable / not benchmark JSON, a pattern that
// matches nothing, no pair, a pair with an errored or missing median).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kExitWithin = 0;
constexpr int kExitOver = 1;  // some ratio outside --max / --min
constexpr int kExitBadInput = 2;

// Times of one run name: per-repetition values and the reported median.
struct RunTimes {
  std::vector<double> repetition_ns;
  std::optional<double> median_aggregate_ns;
  bool errored = false;
};

struct Median {
  double ns = 0;
  size_t repetitions = 0;  // 0: taken from the `_median` aggregate alone
};

std::optional<double> UnitToNs(const std::string& unit) {
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return std::nullopt;
}

// Splits `pattern` at its `*` (at most one); nullopt when there are more.
struct Pattern {
  std::string prefix;
  std::string suffix;
  bool wildcard = false;
};
std::optional<Pattern> ParsePattern(const std::string& text) {
  const size_t star = text.find('*');
  if (star == std::string::npos) return Pattern{text, "", false};
  if (text.find('*', star + 1) != std::string::npos) return std::nullopt;
  return Pattern{text.substr(0, star), text.substr(star + 1), true};
}

// The text `*` stands for when `name` matches, "" for an exact pattern.
std::optional<std::string> Match(const Pattern& p, const std::string& name) {
  if (!p.wildcard) return name == p.prefix ? std::optional<std::string>("") : std::nullopt;
  if (name.size() < p.prefix.size() + p.suffix.size()) return std::nullopt;
  if (name.compare(0, p.prefix.size(), p.prefix) != 0) return std::nullopt;
  if (name.compare(name.size() - p.suffix.size(), p.suffix.size(), p.suffix) != 0) {
    return std::nullopt;
  }
  return name.substr(p.prefix.size(), name.size() - p.prefix.size() - p.suffix.size());
}

std::optional<Median> MedianOf(const RunTimes& t) {
  if (t.errored) return std::nullopt;
  if (!t.repetition_ns.empty()) {
    std::vector<double> v = t.repetition_ns;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return Median{median, n};
  }
  if (t.median_aggregate_ns) return Median{*t.median_aggregate_ns, 0};
  return std::nullopt;
}

// Groups the JSON's entries by run name; an error string on malformed input.
std::optional<std::string> ReadRuns(const nlohmann::json& doc, const std::string& time_key,
                                    std::map<std::string, RunTimes>& runs) {
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    return "no \"benchmarks\" array (is this --benchmark_out_format=json output?)";
  }
  for (const auto& entry : doc["benchmarks"]) {
    if (!entry.is_object() || !entry.contains("name")) return "a benchmark entry has no name";
    const std::string run_type = entry.value("run_type", "iteration");
    std::string run_name = entry.value("run_name", "");
    if (run_name.empty()) {
      run_name = entry["name"].get<std::string>();
      const std::string agg = "_" + entry.value("aggregate_name", "");
      if (run_type == "aggregate" && run_name.size() > agg.size() &&
          run_name.compare(run_name.size() - agg.size(), agg.size(), agg) == 0) {
        run_name.resize(run_name.size() - agg.size());
      }
    }
    RunTimes& t = runs[run_name];
    if (entry.value("error_occurred", false)) {
      t.errored = true;
      continue;
    }
    if (run_type == "aggregate" && entry.value("aggregate_name", "") != "median") continue;
    if (!entry.contains(time_key) || !entry[time_key].is_number()) {
      return "entry " + entry["name"].get<std::string>() + " has no numeric " + time_key;
    }
    const auto scale = UnitToNs(entry.value("time_unit", "ns"));
    if (!scale) return "entry " + entry["name"].get<std::string>() + " has an unknown time_unit";
    const double ns = entry[time_key].get<double>() * *scale;
    if (run_type == "aggregate") {
      t.median_aggregate_ns = ns;
    } else {
      t.repetition_ns.push_back(ns);
    }
  }
  return std::nullopt;
}

std::string FormatNs(double ns) {
  char text[32];
  if (ns >= 1e9) {
    std::snprintf(text, sizeof text, "%.3f s", ns / 1e9);
  } else if (ns >= 1e6) {
    std::snprintf(text, sizeof text, "%.3f ms", ns / 1e6);
  } else if (ns >= 1e3) {
    std::snprintf(text, sizeof text, "%.2f us", ns / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.1f ns", ns);
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Median-time ratio of two Google Benchmark runs (or run families) from one JSON file"};
  std::string json_path;
  std::string numerator_text;
  std::string denominator_text;
  std::optional<double> max_ratio;
  std::optional<double> min_ratio;
  std::vector<std::string> only_keys;
  std::string label;
  bool no_header = false;
  std::string time_kind = "real";
  bool markdown = false;
  app.add_option("--json", json_path, "Google Benchmark output (--benchmark_out_format=json)")
      ->required();
  app.add_option("--numerator", numerator_text, "Run name; one '*' may stand for any text")
      ->required();
  app.add_option("--denominator", denominator_text,
                 "Run name; its '*' pairs with the numerator's '*'")
      ->required();
  app.add_option("--max", max_ratio, "Exit 1 when any ratio is above this (> 0)");
  app.add_option("--min", min_ratio, "Exit 1 when any ratio is below this (> 0)");
  app.add_option("--only", only_keys, "Only the pairs whose '*' text is one of these")
      ->delimiter(',');
  app.add_option("--label", label, "Markdown: a first column naming these rows");
  app.add_flag("--no-header", no_header, "Markdown: print the rows only");
  app.add_option("--time", time_kind, "Which time to compare: real (default) or cpu")
      ->check(CLI::IsMember({"real", "cpu"}));
  app.add_flag("--markdown", markdown, "Print the table as Markdown");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "bench_ratio: " << e.what() << "\n";
    return kExitBadInput;
  }

  if ((max_ratio && !(*max_ratio > 0)) || (min_ratio && !(*min_ratio > 0))) {
    std::cerr << "bench_ratio: --max and --min must be positive numbers\n";
    return kExitBadInput;
  }
  if (max_ratio && min_ratio) {
    std::cerr << "bench_ratio: give --max or --min, not both\n";
    return kExitBadInput;
  }
  const auto numerator = ParsePattern(numerator_text);
  const auto denominator = ParsePattern(denominator_text);
  if (!numerator || !denominator) {
    std::cerr << "bench_ratio: a pattern may contain at most one '*'\n";
    return kExitBadInput;
  }
  if (numerator->wildcard != denominator->wildcard) {
    std::cerr << "bench_ratio: use '*' in both patterns or in neither\n";
    return kExitBadInput;
  }

  std::ifstream in(json_path);
  if (!in) {
    std::cerr << "bench_ratio: cannot read " << json_path << "\n";
    return kExitBadInput;
  }
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    std::cerr << "bench_ratio: " << json_path << " is not valid JSON\n";
    return kExitBadInput;
  }
  std::map<std::string, RunTimes> runs;
  if (auto error = ReadRuns(doc, time_kind + "_time", runs)) {
    std::cerr << "bench_ratio: " << json_path << ": " << *error << "\n";
    return kExitBadInput;
  }

  // Pair by the wildcard's text.
  std::map<std::string, std::string> denominator_by_key;
  for (const auto& [name, times] : runs) {
    if (auto key = Match(*denominator, name)) denominator_by_key.emplace(*key, name);
  }
  std::vector<std::string> order;
  for (const auto& entry : doc["benchmarks"]) {
    std::string name = entry.value("run_name", entry["name"].get<std::string>());
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  }

  struct Row {
    std::string key;  // the text '*' stood for
    std::string numerator, denominator;
    Median num, den;
    double ratio;
  };
  std::vector<Row> rows;
  bool bad_input = false;
  for (const std::string& name : order) {
    const auto it_runs = runs.find(name);
    if (it_runs == runs.end()) continue;
    const auto key = Match(*numerator, name);
    if (!key) continue;
    if (!only_keys.empty() &&
        std::find(only_keys.begin(), only_keys.end(), *key) == only_keys.end()) {
      continue;
    }
    const auto den_it = denominator_by_key.find(*key);
    if (den_it == denominator_by_key.end()) {
      std::cerr << "bench_ratio: warning: " << name << " has no denominator run\n";
      continue;
    }
    const auto num = MedianOf(it_runs->second);
    const auto den = MedianOf(runs[den_it->second]);
    if (!num || !den || den->ns <= 0) {
      std::cerr << "bench_ratio: no usable median for " << (num ? den_it->second : name)
                << " (errored or missing)\n";
      bad_input = true;
      continue;
    }
    rows.push_back({*key, name, den_it->second, *num, *den, num->ns / den->ns});
  }
  // Numeric keys (sizes) in numeric order, others after them by text;
  // random interleaving makes the file's own order meaningless.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    const auto number = [](const std::string& text) -> std::optional<long double> {
      if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) {
        return std::nullopt;
      }
      return std::stold(text);
    };
    const auto na = number(a.key), nb = number(b.key);
    if (na && nb) return *na < *nb;
    if (na || nb) return na.has_value();
    return a.key < b.key;
  });
  if (rows.empty()) {
    std::cerr << "bench_ratio: no run pairs '" << numerator_text << "' / '" << denominator_text
              << "' in " << json_path << "\n";
    return kExitBadInput;
  }

  const bool bounded = max_ratio || min_ratio;
  const double bound = max_ratio ? *max_ratio : min_ratio.value_or(0);
  const char* bound_name = max_ratio ? "max" : "min";
  bool outside = false;
  int width_num = 9, width_den = 11;
  for (const Row& r : rows) {
    width_num = std::max(width_num, static_cast<int>(r.numerator.size()));
    width_den = std::max(width_den, static_cast<int>(r.denominator.size()));
  }
  const std::string label_head = label.empty() ? "" : "| routine ";
  // With a label the goal columns are always there, so rows of bounded and
  // unbounded calls make one table.
  const bool goal_columns = bounded || !label.empty();
  if (markdown && !no_header) {
    std::printf("%s| numerator | denominator | median numerator | median denominator | ratio |%s\n",
                label_head.c_str(), goal_columns ? " goal | verdict |" : "");
    std::printf("%s|---|---|---:|---:|---:|%s\n", label.empty() ? "" : "|---",
                goal_columns ? "---:|---|" : "");
  } else if (!markdown) {
    std::printf("%-*s  %-*s  %12s  %12s  %7s%s\n", width_num, "numerator", width_den, "denominator",
                "median num", "median den", "ratio", bounded ? "  verdict" : "");
  }
  for (const Row& r : rows) {
    std::string verdict, goal;
    if (bounded) {
      const bool row_outside = max_ratio ? r.ratio > bound : r.ratio < bound;
      outside = outside || row_outside;
      char text[48];
      std::snprintf(text, sizeof text, "%s (%s %.3g)", row_outside ? "MISSED" : "ok", bound_name,
                    bound);
      verdict = text;
      std::snprintf(text, sizeof text, "%s %.3g", max_ratio ? "≤" : "≥", bound);
      goal = text;
    }
    const std::string num_time = FormatNs(r.num.ns);
    const std::string den_time = FormatNs(r.den.ns);
    if (markdown) {
      const std::string first = label.empty() ? "" : "| " + label + " ";
      const std::string tail =
          bounded        ? " " + goal + " | " + verdict.substr(0, verdict.find(' ')) + " |"
          : goal_columns ? " — | — |"
                         : "";
      std::printf("%s| `%s` | `%s` | %s | %s | %.3f |%s\n", first.c_str(), r.numerator.c_str(),
                  r.denominator.c_str(), num_time.c_str(), den_time.c_str(), r.ratio, tail.c_str());
    } else {
      std::printf("%-*s  %-*s  %12s  %12s  %7.3f%s\n", width_num, r.numerator.c_str(), width_den,
                  r.denominator.c_str(), num_time.c_str(), den_time.c_str(), r.ratio,
                  bounded ? ("  " + verdict).c_str() : "");
    }
    if (r.num.repetitions == 1 || r.den.repetitions == 1) {
      std::cerr << "bench_ratio: warning: " << r.numerator
                << " pair has a single repetition; use --benchmark_repetitions=5\n";
    }
  }
  if (bad_input) return kExitBadInput;
  return outside ? kExitOver : kExitWithin;
}
