#include "compute/load/id_directory.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace wg::ids {

std::vector<int64_t> bottom_k(const IdTable& ids, size_t k) {
  // A max-heap of the k smallest keys so far: one comparison for most ids.
  std::priority_queue<std::pair<uint64_t, int64_t>> heap;
  ids.for_each([&](int64_t id, uint32_t) {
    const uint64_t key = sample_key(id);
    if (heap.size() < k) {
      heap.emplace(key, id);
    } else if (k > 0 && key < heap.top().first) {
      heap.pop();
      heap.emplace(key, id);
    }
  });
  std::vector<int64_t> out;
  out.reserve(heap.size());
  for (; !heap.empty(); heap.pop()) out.push_back(heap.top().second);
  return out;
}

std::vector<int64_t> choose_splitters(std::vector<int64_t> samples, size_t k, unsigned nodes) {
  std::sort(samples.begin(), samples.end());
  samples.erase(std::unique(samples.begin(), samples.end()), samples.end());
  if (samples.size() > k) {
    std::nth_element(samples.begin(), samples.begin() + static_cast<ptrdiff_t>(k), samples.end(),
                     [](int64_t a, int64_t b) { return sample_key(a) < sample_key(b); });
    samples.resize(k);
    std::sort(samples.begin(), samples.end());
  }
  std::vector<int64_t> splitters;
  if (nodes < 2 || samples.empty()) return splitters;
  for (unsigned r = 1; r < nodes; ++r) splitters.push_back(samples[samples.size() * r / nodes]);
  return splitters;
}

}  // namespace wg::ids
