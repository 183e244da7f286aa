// What `wiregraph doctor` reports: one finding per item, with its verdict
// and, unless it is ok, what to do about it. Pure formatting, no DPDK.
#pragma once

#include <string>
#include <vector>

namespace wg::doctor {

enum class Verdict { kOk, kWarn, kFail, kNotChecked };

struct Finding {
  Verdict verdict = Verdict::kOk;
  std::string item;     // "hugepages", "port 0 mtu"
  std::string finding;  // what was found, with the numbers
  std::string fix;      // what to type or change; empty when ok
};

inline Finding ok(std::string item, std::string finding) {
  return {Verdict::kOk, std::move(item), std::move(finding), ""};
}
inline Finding warn(std::string item, std::string finding, std::string fix) {
  return {Verdict::kWarn, std::move(item), std::move(finding), std::move(fix)};
}
inline Finding fail(std::string item, std::string finding, std::string fix) {
  return {Verdict::kFail, std::move(item), std::move(finding), std::move(fix)};
}
inline Finding not_checked(std::string item, std::string why) {
  return {Verdict::kNotChecked, std::move(item), std::move(why), ""};
}

// "ok", "warn", "FAIL", "n/a": the first word of a finding's line.
const char* verdict_word(Verdict v);

// One line per finding, "VERDICT  ITEM  FINDING", and an indented "fix: ..."
// line under every finding that has a fix; then the closing line.
std::string format_findings(const std::vector<Finding>& findings, const std::string& closing);

// "3 ok, 1 warning, 1 failed, 2 not checked: NOT READY" (READY without failures).
std::string summary(const std::vector<Finding>& findings);
bool any_failed(const std::vector<Finding>& findings);

}  // namespace wg::doctor
