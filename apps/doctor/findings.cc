#include "apps/doctor/findings.h"

#include <algorithm>

namespace wg::doctor {

const char* verdict_word(Verdict v) {
  switch (v) {
    case Verdict::kOk:
      return "ok";
    case Verdict::kWarn:
      return "warn";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kNotChecked:
      return "n/a";
  }
  return "?";
}

std::string format_findings(const std::vector<Finding>& findings, const std::string& closing) {
  size_t width = 0;
  for (const Finding& f : findings) width = std::max(width, f.item.size());
  std::string out;
  for (const Finding& f : findings) {
    std::string word = verdict_word(f.verdict);
    word.resize(6, ' ');
    std::string item = f.item;
    item.resize(width + 2, ' ');
    out += word + item + f.finding + "\n";
    if (!f.fix.empty()) out += std::string(6 + width + 2, ' ') + "fix: " + f.fix + "\n";
  }
  return out + closing + "\n";
}

bool any_failed(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.verdict == Verdict::kFail; });
}

std::string summary(const std::vector<Finding>& findings) {
  unsigned n[4] = {};
  for (const Finding& f : findings) ++n[static_cast<int>(f.verdict)];
  auto count = [](unsigned k, const char* one, const char* many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
  };
  return count(n[0], "ok", "ok") + ", " + count(n[1], "warning", "warnings") + ", " + count(n[2], "failed", "failed") +
         ", " + count(n[3], "not checked", "not checked") + ": " + (n[2] > 0 ? "NOT READY" : "READY");
}

}  // namespace wg::doctor
