#include "apps/node/verify_verdict.h"

namespace wg {

namespace {

const char* outcome_name(VerifyVerdict::Outcome o) {
  switch (o) {
    case VerifyVerdict::Outcome::kValid: return "valid";
    case VerifyVerdict::Outcome::kInvalid: return "invalid";
    case VerifyVerdict::Outcome::kSkipped: return "skipped";
    case VerifyVerdict::Outcome::kNotAsked: break;
  }
  return "not asked";
}

}  // namespace

std::string VerifyVerdict::line() const {
  const bool oracle = method != Method::kInvariant;
  const std::string what = method == Method::kOracle       ? " vertices"
                           : method == Method::kEdgeOracle ? " edges"
                                                           : " edges whose two ends this node owns";
  const std::string against = oracle ? " against the single-node oracle" : " (" + invariant + ")";
  const std::string why = note.empty() ? "" : "; " + note;
  switch (outcome) {
    case Outcome::kValid:
      return "verify: VALID (" + std::to_string(checked) + what + " checked" + against + why + ")";
    case Outcome::kInvalid:
      return "verify: INVALID: " + first + " (" + std::to_string(differing) + " of " + std::to_string(checked) +
             what + " differ" + (oracle ? " from the single-node oracle" : ": " + invariant + " fails") + why + ")";
    case Outcome::kSkipped: return "verify: skipped: " + note;
    case Outcome::kNotAsked: break;
  }
  return "";
}

nlohmann::ordered_json VerifyVerdict::json() const {
  if (outcome == Outcome::kNotAsked) return nullptr;
  nlohmann::ordered_json j;
  j["outcome"] = outcome_name(outcome);
  j["method"] = method == Method::kInvariant ? "invariant" : "oracle";
  j["checked"] = checked;
  j["differing"] = differing;
  j["first"] = first.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(first);
  j["invariant"] = invariant.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(invariant);
  j["note"] = note.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(note);
  return j;
}

}  // namespace wg
