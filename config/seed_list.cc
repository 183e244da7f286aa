#include "config/seed_list.h"

#include <algorithm>
#include <fstream>
#include <string>

namespace wg {

namespace {

bool is_list(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789-, ") == std::string::npos;
}

// One id: what --source accepts, a signed 64-bit integer (the node refuses
// one that is no vertex of the input).
int64_t one_id(const OptionArg& a, const std::string& text, const std::string& where) {
  std::string t = text;
  t.erase(0, t.find_first_not_of(" \t\r"));
  t.erase(t.find_last_not_of(" \t\r") + 1);
  return OptionArg{a.what + where, t}.signed_integer("a vertex id, as the input names it");
}

}  // namespace

std::vector<int64_t> parse_seed_list(const OptionArg& a) {
  std::vector<int64_t> ids;
  if (is_list(a.text)) {
    size_t from = 0;
    while (from <= a.text.size()) {
      const size_t comma = std::min(a.text.find(',', from), a.text.size());
      ids.push_back(one_id(a, a.text.substr(from, comma - from), ""));
      from = comma + 1;
    }
  } else {
    std::ifstream in(a.text);
    if (!in) a.fail("is neither a comma list of vertex ids nor a readable file of them, one per line");
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
      line = line.substr(0, line.find('#'));
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      ids.push_back(one_id(a, line, " " + a.text + ":" + std::to_string(n)));
    }
    if (ids.empty()) a.fail("holds no vertex id");
  }
  if (ids.size() > kMaxSeeds)
    a.fail("names " + std::to_string(ids.size()) + " seeds: at most " + std::to_string(kMaxSeeds) +
           " run together (their values travel in one 64-byte message); split them over several runs");
  std::vector<int64_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    a.fail("names vertex " + std::to_string(*twice) + " twice");
  return ids;
}

}  // namespace wg
