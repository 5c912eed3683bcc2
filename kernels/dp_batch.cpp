// kernels/dp_batch.cpp — which tasks the batch kernels (dp_batch_simd.cpp) compute.
#include "dp_common.hpp"
#include "dp_kernels.hpp"

namespace agatha::kernels {

bool batch_task(const DpTask& task, uint64_t& key) {
  constexpr uint32_t kAllowed = dp_flag::kApproxMax | dp_flag::kRevCigar | dp_flag::kMteQCell;
  if (!(task.flag & dp_flag::kApproxMax) || (task.flag & ~kAllowed)) return false;
  if (task.query.empty() || task.target.empty() || task.query.size() > kBatchMaxLen ||
      task.target.size() > kBatchMaxLen || dp_task_on_oracle(task))
    return false;
  Setup s;
  if (!prepare(task, s) || s.generic) return false;
  // |i - j| <= w holds for every cell of the matrix: the band is all of it.
  if (s.w < std::max(s.qlen, s.tlen) - 1) return false;
  const auto byte = [](int8_t v, int at) { return static_cast<uint64_t>(static_cast<uint8_t>(v)) << (8 * at); };
  key = byte(s.q, 0) | byte(s.e, 1) | byte(s.q2, 2) | byte(s.e2, 3) | byte(s.sc_match, 4) | byte(s.sc_mismatch, 5) |
        byte(s.sc_ambi, 6);
  return true;
}

}  // namespace agatha::kernels
