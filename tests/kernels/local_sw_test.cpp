// The striped local alignment of the inversion checks: the SSE2 version against the
// scalar reference on random and structured inputs, and properties of the scalar one.
#include "kernels/local_sw.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace agatha::kernels {
namespace {

std::vector<uint8_t> random_seq(std::mt19937& rng, int n, int n_rate_pct = 2) {
  std::uniform_int_distribution<int> base(0, 3), pct(0, 99);
  std::vector<uint8_t> s(static_cast<size_t>(n));
  for (uint8_t& c : s) c = pct(rng) < n_rate_pct ? 4 : static_cast<uint8_t>(base(rng));
  return s;
}

// A copy of `s` with substitutions and indels at the given rate.
std::vector<uint8_t> mutate(std::mt19937& rng, const std::vector<uint8_t>& s, int rate_pct) {
  std::uniform_int_distribution<int> base(0, 3), pct(0, 99), kind(0, 2);
  std::vector<uint8_t> out;
  for (uint8_t c : s) {
    if (pct(rng) >= rate_pct) {
      out.push_back(c);
      continue;
    }
    const int k = kind(rng);
    if (k == 0) out.push_back(static_cast<uint8_t>(base(rng)));
    if (k == 1) out.push_back(c), out.push_back(static_cast<uint8_t>(base(rng)));
  }
  return out;
}

// The best score of an exact local alignment (affine gaps q + L*e): ksw_ll_i16 may report
// less (its lazy-F loop does not feed E), never more.
int exact_local(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t, const DpScoring& sc) {
  const int n = static_cast<int>(q.size());
  std::vector<int> h(static_cast<size_t>(n + 1), 0), e(static_cast<size_t>(n + 1), 0);
  int best = 0;
  for (uint8_t tc : t) {
    int diag = 0, f = 0;
    for (int j = 1; j <= n; ++j) {
      e[j] = std::max(e[j] - sc.e, h[j] - sc.q - sc.e);
      f = std::max(f - sc.e, h[j - 1] - sc.q - sc.e);
      const uint8_t qc = q[static_cast<size_t>(j - 1)];
      const int s = (tc > 3 || qc > 3) ? -sc.ambi : tc == qc ? sc.a : -sc.b;
      const int x = std::max({0, diag + s, e[j], f});
      diag = h[j];
      h[j] = x;
      best = std::max(best, x);
    }
  }
  return best;
}

TEST(LocalSw, SimdEqualsScalarOnRandomPairs) {
  if (!local_sw_i16_has_simd()) GTEST_SKIP() << "no SSE2 version in this build";
  std::mt19937 rng(7);
  const DpScoring schemes[] = {{2, 4, 1, 4, 2}, {1, 4, 1, 6, 2}, {1, 19, 1, 39, 3}, {1, 9, 1, 16, 2}};
  std::uniform_int_distribution<int> len(1, 700), rate(0, 40);
  int n = 0;
  for (const DpScoring& sc : schemes) {
    for (int k = 0; k < 150; ++k, ++n) {
      const std::vector<uint8_t> q = random_seq(rng, len(rng));
      const std::vector<uint8_t> t = (k % 3 == 0) ? random_seq(rng, len(rng)) : mutate(rng, q, rate(rng));
      const LocalSwResult a = local_sw_i16_scalar(q.data(), static_cast<int>(q.size()), t.data(),
                                                  static_cast<int>(t.size()), sc);
      const LocalSwResult b = local_sw_i16(q.data(), static_cast<int>(q.size()), t.data(), static_cast<int>(t.size()), sc);
      ASSERT_EQ(a.score, b.score) << "case " << n;
      ASSERT_EQ(a.qe, b.qe) << "case " << n;
      ASSERT_EQ(a.te, b.te) << "case " << n;
    }
  }
}

TEST(LocalSw, NeverAboveTheExactLocalScore) {
  std::mt19937 rng(11);
  const DpScoring sc{2, 4, 1, 4, 2};
  int below = 0;
  for (int k = 0; k < 200; ++k) {
    const std::vector<uint8_t> q = random_seq(rng, 20 + k * 3);
    const std::vector<uint8_t> t = mutate(rng, q, 25);
    const LocalSwResult r =
        local_sw_i16_scalar(q.data(), static_cast<int>(q.size()), t.data(), static_cast<int>(t.size()), sc);
    const int exact = exact_local(q, t, sc);
    ASSERT_LE(r.score, exact) << "case " << k;
    if (r.score < exact) ++below;
  }
  RecordProperty("below_exact", below);
}

TEST(LocalSw, IdenticalSequencesScoreTheirLength) {
  std::mt19937 rng(3);
  const std::vector<uint8_t> q = random_seq(rng, 123, 0);
  const LocalSwResult r = local_sw_i16(q.data(), 123, q.data(), 123, DpScoring{2, 4, 1, 4, 2});
  EXPECT_EQ(r.score, 246);
  EXPECT_EQ(r.te, 122);
  // The zero-score padding (slots 123..127) carries the best score on: qe points into it.
  EXPECT_GE(r.qe, 122);
}

TEST(LocalSw, EmptyInputs) {
  const uint8_t s[1] = {0};
  EXPECT_EQ(local_sw_i16(s, 0, s, 1, {}).score, 0);
  EXPECT_EQ(local_sw_i16(s, 1, s, 0, {}).te, -1);
}

}  // namespace
}  // namespace agatha::kernels
