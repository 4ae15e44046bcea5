// report.html: one self-contained page (inline CSS and JS, no network, no
// external fonts). The matrix, filterable by outcome, routine and profile;
// each failure with its minimal case, reproducer, first mismatches in logical
// coordinates and pictures of the output's storage blocks (reports/blocks.h);
// the coverage table when report.json has one. Every string a port could have
// touched goes through HtmlEscape (reports/text.h).
#include <algorithm>
#include <map>
#include <sstream>

#include "reports/blocks.h"
#include "reports/matrix.h"
#include "reports/report.h"
#include "reports/text.h"

namespace npuconf::report {
namespace {

constexpr int kMaxFailuresShown = 200;
constexpr int kMaxMismatchRows = 8;
constexpr size_t kMaxMessageChars = 4000;  // the full message stays in report.json

const char* kStyle = R"CSS(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px 24px;color:#202124}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:24px 0 8px} h3{font-size:15px;margin:0 0 6px}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-all}
.verdict{padding:10px 14px;border-radius:6px;margin-bottom:10px}
.v-ok{background:#d4edda}.v-bad{background:#f8d7da}.v-none{background:#fff3cd}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
table.matrix td.cell{text-align:center;min-width:64px;font-weight:600}
.o-pass{background:#bfe5c8}.o-fail{background:#f4c7c3}.o-gave_up,.o-vacuous{background:#ffe08a}
.o-not_claimed{background:#eceff1;color:#555}.o-not_covered{background:#e3e7fb;color:#445}
.o-not_applicable{background:#fafafa;color:#888}.o-empty{background:#fff}
td.cell a{color:inherit;text-decoration:none;display:block}
.filters{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #d0d7de;z-index:2}
.filters label{margin-right:10px;white-space:nowrap}
.failure{border:1px solid #d0d7de;border-left:6px solid #a50e0e;border-radius:4px;padding:10px 14px;margin:12px 0}
.picture{margin:8px 0;display:inline-block;vertical-align:top;margin-right:24px}
.picture figcaption{font-size:12.5px;max-width:720px;color:#444}
.swatch{display:inline-block;width:11px;height:11px;border:1px solid #888;margin:0 3px 0 6px;vertical-align:-1px}
.hidden{display:none}.dim{visibility:hidden}
button.copy{float:right;font-size:12px}
.legend{font-size:12.5px;color:#444}
)CSS";

const char* kScript = R"JS(
(function(){
  var text=document.getElementById('filter-text');
  var boxes=[].slice.call(document.querySelectorAll('input.outcome'));
  function apply(){
    var q=text.value.trim().toLowerCase();
    var on={}; boxes.forEach(function(b){on[b.value]=b.checked;});
    // A cell matches on its routine, profile or any of its properties' names.
    function match(el){
      var words=[el.getAttribute('data-routine'),el.getAttribute('data-profile'),
                 el.getAttribute('data-property'),el.getAttribute('data-properties')];
      return !q||words.some(function(w){return (w||'').toLowerCase().indexOf(q)>=0;});
    }
    document.querySelectorAll('table.matrix tr[data-routine]').forEach(function(row){
      var any=false;
      row.querySelectorAll('td.cell').forEach(function(td){
        var o=td.getAttribute('data-outcome');
        var show=o!=='empty'&&on[o]!==false&&match(td);
        td.classList.toggle('dim',!show); if(show) any=true;
      });
      row.classList.toggle('hidden',!any);
    });
    document.querySelectorAll('[data-filtered]').forEach(function(el){
      var o=el.getAttribute('data-outcome');
      el.classList.toggle('hidden',!(on[o]!==false&&match(el)));
    });
    // The coverage rows by text only; the counts of what is shown.
    document.querySelectorAll('[data-text-filtered]').forEach(function(el){
      el.classList.toggle('hidden',!match(el));
    });
    document.querySelectorAll('[data-count-of]').forEach(function(el){
      var sel=el.getAttribute('data-count-of');
      el.textContent=[].filter.call(document.querySelectorAll(sel),function(x){
        return !x.classList.contains('hidden');}).length;
    });
  }
  // report.html#q=TEXT&outcome=fail,waived opens with the filter set: the text,
  // and only the outcomes listed checked.
  location.hash.replace(/^#/,'').split('&').forEach(function(kv){
    var i=kv.indexOf('='); if(i<0) return;
    var k=kv.slice(0,i), v=decodeURIComponent(kv.slice(i+1));
    if(k==='q') text.value=v;
    if(k==='outcome'){var want=v.split(',');
      boxes.forEach(function(b){b.checked=want.indexOf(b.value)>=0;});}
  });
  text.addEventListener('input',apply); boxes.forEach(function(b){b.addEventListener('change',apply);});
  document.querySelectorAll('button.copy').forEach(function(b){
    b.addEventListener('click',function(){
      var pre=document.getElementById(b.getAttribute('data-for'));
      var done=function(){b.textContent='copied';};
      if(navigator.clipboard){navigator.clipboard.writeText(pre.textContent).then(done,function(){});}
      else{var r=document.createRange();r.selectNodeContents(pre);var s=window.getSelection();s.removeAllRanges();s.addRange(r);}
    });
  });
  apply();
  document.body.setAttribute('data-js','ready');
})();
)JS";

std::string Attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + HtmlEscape(value) + "\"";
}

std::string CellText(const Cell& cell) {
  if (cell.empty) return "";
  switch (cell.outcome) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "FAIL " + std::to_string(cell.failing) + "/" + std::to_string(cell.properties);
    case Outcome::kGaveUp:
      return "gave up";
    case Outcome::kVacuous:
      return "vacuous";
    case Outcome::kNotClaimed:
      return "not claimed";
    case Outcome::kNotCovered:
      return "not covered";
    case Outcome::kNotApplicable:
      return "n/a";
    case Outcome::kTooLarge:
      return "too large";
    case Outcome::kWaived:
      return "waived " + std::to_string(cell.waived) + "/" + std::to_string(cell.properties);
  }
  return "?";
}

void WriteMismatches(const nlohmann::json& evidence, std::ostream& out) {
  if (!evidence.is_object() || !evidence.contains("first") || !evidence["first"].is_array() ||
      evidence["first"].empty()) {
    return;
  }
  out << "<p>First mismatches";
  if (evidence.contains("mismatches") && evidence.contains("compared")) {
    out << " (" << HtmlEscape(evidence["mismatches"].dump()) << " of "
        << HtmlEscape(evidence["compared"].dump()) << " elements of <code>"
        << HtmlEscape(evidence.value("output", std::string())) << "</code> differ)";
  }
  out << ":</p><table><tr><th>logical element</th><th>storage block</th><th>in block</th>"
         "<th>storage index</th><th>expected</th><th>held</th><th>meaning</th></tr>";
  int rows = 0;
  for (const auto& m : evidence["first"]) {
    if (++rows > kMaxMismatchRows) break;
    const nlohmann::json place = m.value("place", nlohmann::json::object());
    const std::string index = m.contains("storage_index")
                                  ? m["storage_index"].dump()
                                  : m.value("byte_offset", nlohmann::json()).dump();
    out << "<tr><td>" << HtmlEscape(LogicalText(m)) << "</td><td>"
        << HtmlEscape(CoordsText(place.value("block", nlohmann::json::array()), true))
        << "</td><td>"
        << HtmlEscape(CoordsText(place.value("within", nlohmann::json::array()), false))
        << "</td><td>" << HtmlEscape(index) << "</td><td><code>"
        << HtmlEscape(m.value("expected", std::string())) << "</code></td><td><code>"
        << HtmlEscape(m.value("actual", std::string())) << "</code></td><td>"
        << HtmlEscape(m.value("meaning", std::string())) << "</td></tr>";
  }
  out << "</table>";
}

void WriteFailure(const PropertyResult& r, int index, std::ostream& out) {
  out << "<section class=\"failure\" data-filtered" << Attr("id", "f-" + std::to_string(index))
      << Attr("data-routine", r.routine) << Attr("data-profile", r.profile)
      << Attr("data-property", r.property) << Attr("data-outcome", ToString(r.outcome)) << ">";
  out << "<h3>" << HtmlEscape(ToString(r.outcome)) << ": <code>" << HtmlEscape(r.property)
      << "</code> on " << HtmlEscape(r.profile) << "</h3>";
  if (!r.description.empty()) out << "<p class=\"legend\">" << HtmlEscape(r.description) << "</p>";
  if (!r.basis.empty()) out << "<p><b>Rests on " << HtmlEscape(r.basis) << "</b></p>";
  out << "<p>" << HtmlEscape(Shorten(r.message, kMaxMessageChars)) << "</p>";
  if (!r.counterexample.empty()) {
    out << "<p>Minimal case: <code>" << HtmlEscape(r.counterexample) << "</code></p>";
  }
  if (!r.first_explicit_failure.empty()) {
    out << "<p>First explicit case that failed: <code>" << HtmlEscape(r.first_explicit_failure)
        << "</code></p>";
  }
  if (!r.unwaived_case.empty()) {
    out << "<p>Not waived: a waiver names this property, but not its failing case <code>"
        << HtmlEscape(r.unwaived_case) << "</code></p>";
  }
  if (!r.counterexample_case.is_null()) {
    out << "<details><summary>case JSON</summary><pre>"
        << HtmlEscape(
               r.counterexample_case.dump(2, ' ', false, nlohmann::json::error_handler_t::replace))
        << "</pre></details>";
  }
  if (!r.reproduce.empty()) {
    const std::string id = "repro-" + std::to_string(index);
    out << "<p>Reproduce: <button class=\"copy\"" << Attr("data-for", id)
        << ">copy</button></p><pre" << Attr("id", id) << ">" << HtmlEscape(r.reproduce) << "</pre>";
  }
  // Evidence read back from a report.json (report merge) is outside data: a
  // field of another type than the runner writes is noted, and the rest of
  // the report still renders.
  try {
    std::ostringstream evidence;
    WriteMismatches(r.evidence, evidence);
    evidence << BlockGridSvg(r.evidence) << BlockCellsSvg(r.evidence);
    out << evidence.str();
  } catch (const nlohmann::json::exception& e) {
    out << "<p>(evidence not shown: " << HtmlEscape(e.what()) << ")</p>";
  }
  out << "</section>\n";
}

}  // namespace

std::string ToHtml(const RunReport& report) { return ToHtml(report, ToJson(report)); }

std::string ToHtml(const RunReport& report, const nlohmann::json& json) {
  std::ostringstream out;
  const Verdict verdict = VerdictOf(report);
  const char* verdict_class = verdict == Verdict::kConformant      ? "v-ok"
                              : verdict == Verdict::kNonConformant ? "v-bad"
                                                                   : "v-none";
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
      << "<title>npuconf: " << HtmlEscape(ToString(verdict)) << " " << HtmlEscape(report.port_name)
      << "</title><style>" << kStyle << "</style></head><body>\n";
  out << "<div class=\"verdict " << verdict_class << "\"><h1 id=\"verdict\">"
      << HtmlEscape(ToString(verdict)) << ": <code>" << HtmlEscape(report.port_name) << "</code> "
      << HtmlEscape(report.port_version) << "</h1>" << report.results.size()
      << " results: " << HtmlEscape(CountsLine(report)) << "</div>";
  out << "<p class=\"legend\">npuconf " << HtmlEscape(report.suite_version);
  if (!report.isa.empty()) out << " (reference kernels: " << HtmlEscape(report.isa) << ")";
  out << ", seed " << report.seed << ", " << report.cases << " random cases per property";
  if (!report.command.empty()) out << ", <code>" << HtmlEscape(report.command) << "</code>";
  out << "</p>\n";
  const auto code = [](const std::string& s) { return "<code>" + HtmlEscape(s) + "</code>"; };
  if (const std::string line = TooLargeOf(report).Text(code, HtmlEscape); !line.empty())
    out << "<p class=\"legend\">Not run: " << line << "</p>\n";
  out << "<p class=\"legend\" id=\"kill-rate\">" << HtmlEscape(KillRateText(report.kill_rate))
      << "</p>\n";
  if (const std::string today = TodayText(report);
      !today.empty() && (report.today_forced || !report.waivers_file.empty()))
    out << "<p class=\"legend\" id=\"today\">" << HtmlEscape(today) << "</p>\n";

  // Filters.
  out << "<div class=\"filters\">Filter: <input id=\"filter-text\" type=\"search\" size=\"28\" "
         "placeholder=\"routine, profile or property\"> ";
  for (Outcome o :
       {Outcome::kPass, Outcome::kFail, Outcome::kGaveUp, Outcome::kVacuous, Outcome::kWaived,
        Outcome::kNotClaimed, Outcome::kNotCovered, Outcome::kNotApplicable, Outcome::kTooLarge}) {
    out << "<label><input type=\"checkbox\" class=\"outcome\" checked" << Attr("value", ToString(o))
        << "> " << HtmlEscape(ToString(o)) << "</label>";
  }
  out << "</div>\n";

  // Matrix.
  out << "<h2>Routine × profile</h2>";
  const Matrix matrix = BuildMatrix(report);
  // The first failure of each cell, for a link from the cell.
  std::map<std::pair<std::string, std::string>, int> first_failure;
  {
    int index = 0;
    for (const auto& r : report.results) {
      if (!IsFailure(r.outcome)) continue;
      first_failure.emplace(std::make_pair(r.routine, r.profile), index);
      ++index;
    }
  }
  // The properties each cell folds, for the text filter (#q=PROPERTY).
  std::map<std::pair<std::string, std::string>, std::string> cell_properties;
  for (const auto& r : report.results) {
    std::string& names = cell_properties[{r.routine, r.profile}];
    names += (names.empty() ? "" : " ") + r.property;
  }
  for (const auto& part : SplitByFamily(matrix)) {
    out << "<table class=\"matrix\"><tr><th>" << HtmlEscape(part.family) << " routine</th>";
    for (const auto& p : part.profiles) out << "<th>" << HtmlEscape(p) << "</th>";
    out << "</tr>";
    for (const auto& routine : part.routines) {
      out << "<tr" << Attr("data-routine", routine) << "><th><code>" << HtmlEscape(routine)
          << "</code></th>";
      for (const auto& p : part.profiles) {
        const Cell& cell = matrix.at(routine, p);
        const std::string outcome = cell.empty ? "empty" : ToString(cell.outcome);
        out << "<td" << Attr("class", "cell o-" + outcome) << Attr("data-outcome", outcome)
            << Attr("data-routine", routine) << Attr("data-profile", p)
            << Attr("data-properties", cell_properties[{routine, p}])
            << Attr("title", routine + " on " + p + ": " + std::to_string(cell.passing) + " of " +
                                 std::to_string(cell.properties) + " properties pass")
            << ">";
        auto link = first_failure.find({routine, p});
        if (link != first_failure.end() && link->second < kMaxFailuresShown) {
          out << "<a href=\"#f-" << link->second << "\">" << HtmlEscape(CellText(cell)) << "</a>";
        } else {
          out << HtmlEscape(CellText(cell));
        }
        out << "</td>";
      }
      out << "</tr>";
    }
    out << "</table>\n";
  }
  out << "<p class=\"legend\">A cell folds the routine's properties on the profile: FAIL n/m — n "
         "of m failed; gave up / vacuous — too few valid cases / none checked (a failure); not "
         "claimed — the port does not implement it; not covered — the profile's facts are not "
         "public; n/a — no valid case exists on the profile; waived n/m — n failures a waiver "
         "names (not counted). A failing cell links to its failure.</p>\n";

  // Waived failures with their reasons, and stale waivers.
  int waived = 0;
  for (const auto& r : report.results) waived += r.outcome == Outcome::kWaived;
  if (waived > 0) {
    out << "<h2 id=\"waived\">Waived (" << waived << ", " << HtmlEscape(report.waivers_file)
        << ")</h2><table><tr><th>property</th><th>profile</th><th>reason</th><th>expires</th>"
           "<th>failure</th></tr>";
    for (const auto& r : report.results) {
      if (r.outcome != Outcome::kWaived) continue;
      out << "<tr class=\"row\" data-outcome=\"waived\"><td><code>" << HtmlEscape(r.property)
          << "</code></td><td>" << HtmlEscape(r.profile) << "</td><td>"
          << HtmlEscape(r.waiver.reason)
          << (r.waiver.tracking.empty() ? "" : " (" + HtmlEscape(r.waiver.tracking) + ")")
          << "</td><td>" << HtmlEscape(r.waiver.expires) << "</td><td>" << HtmlEscape(r.message)
          << "</td></tr>";
    }
    out << "</table>\n";
  }
  if (!report.stale_waivers.empty()) {
    out << "<h2 id=\"stale-waivers\">Stale waivers (" << report.stale_waivers.size()
        << ": they matched no failure)</h2><ul>";
    for (const auto& w : report.stale_waivers) {
      out << "<li><code>" << HtmlEscape(w.property) << "</code> on <code>" << HtmlEscape(w.profile)
          << "</code>" << (w.when.empty() ? "" : " when <code>" + HtmlEscape(w.when) + "</code>")
          << ": " << HtmlEscape(w.reason) << " (expires " << HtmlEscape(w.expires) << ")</li>";
    }
    out << "</ul>\n";
  }

  // Failures.
  int failures = 0;
  for (const auto& r : report.results) failures += IsFailure(r.outcome);
  if (failures > 0) {
    out << "<h2 id=\"failures\">Failures (<span data-count-of=\"section.failure\">" << failures
        << "</span> shown of " << failures << ")</h2>\n";
    int index = 0;
    for (const auto& r : report.results) {
      if (!IsFailure(r.outcome)) continue;
      if (index < kMaxFailuresShown) WriteFailure(r, index, out);
      ++index;
    }
    if (failures > kMaxFailuresShown) {
      out << "<p>" << failures - kMaxFailuresShown
          << " more failures are in report.json and report.md.</p>";
    }
  }

  // Choices.
  const auto groups = ChoicesByProfile(report);
  if (!groups.empty()) {
    out << "<h2>Vendor readings checked (choices)</h2><table><tr><th>profiles</th><th>choice</th>"
           "<th>reading checked</th><th>readings</th><th>source</th></tr>";
    for (const auto& g : groups) {
      std::string profiles;
      for (const auto& p : g.profiles) profiles += (profiles.empty() ? "" : ", ") + p;
      bool first = true;
      for (const auto& c : g.choices) {
        std::string readings;
        for (const auto& reading : c.readings) readings += (readings.empty() ? "" : ", ") + reading;
        out << "<tr>";
        if (first) {
          out << "<td rowspan=\"" << g.choices.size() << "\">" << HtmlEscape(profiles) << "</td>";
        }
        first = false;
        out << "<td><code>" << HtmlEscape(c.name) << "</code></td><td><b>" << HtmlEscape(c.value)
            << "</b></td><td>" << HtmlEscape(readings) << "</td><td>" << HtmlEscape(c.source)
            << "</td></tr>";
      }
    }
    out << "</table>\n";
  }

  // Coverage (report.json's "coverage", when the run computed one): folded and
  // after the failures, which a reader comes for first.
  if (json.contains("coverage") && json["coverage"].is_array()) {
    size_t missing = 0;
    for (const auto& row : json["coverage"]) {
      missing += row.value("status", "") == "missing";
    }
    out << "<h2 id=\"coverage\">Coverage</h2><details" << (missing ? " open" : "") << "><summary>"
        << json["coverage"].size() << " boundary classes (<span data-count-of=\"tr.coverage\">"
        << json["coverage"].size() << "</span> shown), " << missing << " required class"
        << (missing == 1 ? "" : "es") << " not hit</summary><table><tr><th>routine</th>"
        << "<th>profile</th><th>class</th><th>status</th><th>hits</th><th>what it is</th></tr>";
    for (const auto& row : json["coverage"]) {
      const std::string status = row.value("status", "");
      out << "<tr class=\"coverage\" data-text-filtered"
          << Attr("data-routine", row.value("routine", ""))
          << Attr("data-profile", row.value("profile", ""))
          << Attr("data-property", row.value("routine", "") + ".coverage") << "><td><code>"
          << HtmlEscape(row.value("routine", "")) << "</code></td><td>"
          << HtmlEscape(row.value("profile", "")) << "</td><td>"
          << HtmlEscape(row.value("class", "")) << "</td><td"
          << Attr("class", status == "missing" ? "o-fail" : "") << ">" << HtmlEscape(status)
          << "</td><td>" << row.value("hits", 0) << "</td><td>" << HtmlEscape(row.value("doc", ""))
          << "</td></tr>";
    }
    out << "</table></details>\n";
  }

  // Every result.
  out << "<details><summary>All " << report.results.size()
      << " results</summary><table><tr><th>property</th><th>profile</th><th>result</th>"
         "<th>explicit + random cases</th><th>message</th></tr>";
  for (const auto& r : report.results) {
    out << "<tr data-filtered" << Attr("data-routine", r.routine) << Attr("data-profile", r.profile)
        << Attr("data-property", r.property) << Attr("data-outcome", ToString(r.outcome))
        << "><td><code>" << HtmlEscape(r.property) << "</code></td><td>" << HtmlEscape(r.profile)
        << "</td><td" << Attr("class", "o-" + ToString(r.outcome)) << ">"
        << HtmlEscape(ToString(r.outcome)) << "</td><td>" << r.explicit_cases << " + "
        << r.random_cases << "</td><td>" << HtmlEscape(Shorten(r.message, 300)) << "</td></tr>";
  }
  out << "</table></details>\n";
  out << "<script>" << kScript << "</script></body></html>\n";
  return out.str();
}

}  // namespace npuconf::report
