// Seeded differential tests: the SIMD backends against the scalar oracle on random
// tasks covering every flag combination, narrow, tiny and disabled bands, Z-drop on
// and off, end bonuses, N runs, empty and one-base sequences and seven scoring schemes.
#include "support/dp.hpp"

#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace agatha {
namespace {

struct OwnedTask {
  std::vector<uint8_t> q, t;
  DpTask task;
};

class TaskGen {
 public:
  explicit TaskGen(uint64_t seed) : rng_(seed) {}

  OwnedTask next() {
    OwnedTask o;
    const int kind = pick(10);
    const int len = kind == 0 ? pick(3) : kind < 7 ? 1 + pick(300) : 300 + pick(1500);
    o.t = random_seq(len);
    o.q = pick(6) == 0 ? random_seq(pick(2) ? len : 1 + pick(400)) : mutate(o.t);
    if (pick(3) == 0) add_n_run(pick(2) ? o.q : o.t);
    if (kind == 0 && pick(2)) o.q.clear();
    if (pick(8) == 0) tandem(o.q, o.t);
    static constexpr uint32_t kFlags[] = {0, 1, 2, 3, 8, 10, 24, 64, 65, 66, 72, 128, 130, 194, 200, 66 | 128};
    static constexpr DpScoring kSchemes[] = {{2, 4, 1, 4, 2, 24, 1},  {1, 4, 1, 6, 2, 26, 1},  {1, 19, 1, 39, 3, 81, 1},
                                             {1, 9, 1, 16, 2, 41, 1}, {2, 8, 1, 12, 2, 32, 1}, {3, 5, 1, 5, 1, 20, 1},
                                             {2, 4, 0, 4, 2, 24, 1}};
    static constexpr int kBands[] = {-1, 0, 1, 2, 5, 15, 16, 17, 33, 100, 751};
    static constexpr int kZdrops[] = {-1, 0, 1, 20, 100, 400};
    static constexpr int kBonus[] = {-1, 0, 5, 50};
    o.task.flag = kFlags[pick(std::size(kFlags))];
    o.task.scoring = kSchemes[pick(std::size(kSchemes))];
    o.task.w = kBands[pick(std::size(kBands))];
    o.task.zdrop = kZdrops[pick(std::size(kZdrops))];
    o.task.end_bonus = kBonus[pick(std::size(kBonus))];
    return o;
  }

 private:
  int pick(size_t n) { return static_cast<int>(rng_() % n); }
  std::vector<uint8_t> random_seq(int n) {
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = static_cast<uint8_t>(pick(4));
    return s;
  }
  // Substitutions, short and long indels at a random divergence.
  std::vector<uint8_t> mutate(const std::vector<uint8_t>& s) {
    const int rate = 1 + pick(25);  // percent
    std::vector<uint8_t> o;
    for (size_t i = 0; i < s.size(); ++i) {
      const int r = pick(100);
      if (r >= rate) {
        o.push_back(s[i]);
      } else if (r < rate / 3) {
        o.push_back(static_cast<uint8_t>((s[i] + 1 + pick(3)) & 3));
      } else if (r < 2 * rate / 3) {
        const int n = pick(10) == 0 ? 20 + pick(60) : 1 + pick(4);
        for (int k = 0; k < n; ++k) o.push_back(static_cast<uint8_t>(pick(4)));
        o.push_back(s[i]);
      } else if (pick(10) == 0) {
        i += static_cast<size_t>(pick(60));
      }
    }
    return o;
  }
  void add_n_run(std::vector<uint8_t>& s) {
    if (s.empty()) return;
    const size_t at = static_cast<size_t>(pick(s.size()));
    const size_t n = std::min(s.size() - at, static_cast<size_t>(1 + pick(40)));
    std::fill(s.begin() + at, s.begin() + at + n, uint8_t{4});
  }
  // Replace both with copies of one short unit: many equal-scoring paths.
  void tandem(std::vector<uint8_t>& q, std::vector<uint8_t>& t) {
    const auto unit = random_seq(1 + pick(6));
    auto fill = [&](std::vector<uint8_t>& s, size_t n) {
      s.resize(n);
      for (size_t i = 0; i < n; ++i) s[i] = unit[i % unit.size()];
    };
    fill(q, q.size() + pick(20));
    fill(t, t.size());
  }
  std::mt19937_64 rng_;
};

void expect_same(const DpResult& want, const DpResult& got, const DpTask& t, size_t i, const std::string& name) {
  const auto a = io::format_answer(want), b = io::format_answer(got);
  for (int k = 0; k < io::kTaskAnswerColumns; ++k)
    ASSERT_EQ(a[k], b[k]) << name << " task " << i << " column " << 15 + k << " flag " << t.flag << " w " << t.w
                          << " zdrop " << t.zdrop << " qlen " << t.query.size() << " tlen " << t.target.size();
  ASSERT_EQ(want.cells, got.cells) << name << " task " << i;
}

class DpDifferential : public ::testing::TestWithParam<std::string> {};

TEST_P(DpDifferential, MatchesScalarOracleOnRandomTasks) {
  auto fast = test::try_backend(GetParam());
  if (!fast) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  auto oracle = test::try_backend("scalar");
  TaskGen gen(0x5eed0001);
  constexpr size_t kTasks = 4000;
  std::vector<OwnedTask> owned;
  for (size_t i = 0; i < kTasks; ++i) owned.push_back(gen.next());
  std::vector<DpTask> tasks;
  for (auto& o : owned) {
    o.task.query = o.q, o.task.target = o.t;
    tasks.push_back(o.task);
  }
  std::vector<DpResult> want(kTasks), got(kTasks);
  oracle->run(tasks, want);
  fast->run(tasks, got);
  size_t zdropped = 0, with_cigar = 0;
  for (size_t i = 0; i < kTasks; ++i) {
    expect_same(want[i], got[i], tasks[i], i, GetParam());
    zdropped += want[i].zdropped;
    with_cigar += !want[i].cigar.empty();
  }
  // The generator must actually exercise the interesting paths.
  EXPECT_GT(zdropped, kTasks / 20);
  EXPECT_GT(with_cigar, kTasks / 3);
}

// Single-affine (ksw_extz2) tasks and scorings past the fast kernels' 8-bit range
// (dp_task_on_oracle) are handed to the scalar kernels by every other backend, with one
// note however many batches carry them; native tasks of the same batch stay where they
// are. Answers equal the scalar backend's for every task.
TEST_P(DpDifferential, HandsOracleTasksToTheScalarKernels) {
  DpBackendOptions opt;
  const std::string name = GetParam();
  opt.backend = name.rfind("cpu-", 0) == 0 ? "cpu" : name;
  if (opt.backend == "cpu") {
    opt.isa = name.substr(4);
    const auto isas = supported_isas();
    if (std::find(isas.begin(), isas.end(), opt.isa) == isas.end()) GTEST_SKIP() << "no " << opt.isa;
  }
  std::vector<std::string> notes;
  opt.log = [&notes](const std::string& m) { notes.push_back(m); };
  auto backend = make_dp_backend(opt);
  auto oracle = test::try_backend("scalar");
  TaskGen gen(0x5eed0003);
  static constexpr DpScoring kWide[] = {{100, 200, 1, 30, 5, 60, 1},  {300, -7, 1, 10, 6, 40, 1},
                                        {60, 100, 1, 50, 10, 50, 10}, {2, 4, 1, 24, 1, 4, 2},
                                        {0, 4, 1, 4, 2, 24, 1},       {128, 129, 300, 4, 2, 24, 1}};
  constexpr size_t kTasks = 900;
  std::vector<OwnedTask> owned;
  size_t n_oracle = 0;
  for (size_t i = 0; i < kTasks; ++i) {
    owned.push_back(gen.next());
    DpTask& t = owned.back().task;
    if (i % 3 == 1) {  // one gap piece: ksw_extz2
      t.flag |= dp_flag::kSingleAffine;
      t.scoring.q2 = t.scoring.q, t.scoring.e2 = t.scoring.e;
    } else if (i % 3 == 2) {
      t.scoring = kWide[i / 3 % std::size(kWide)];
      if (t.scoring.q == 50) t.flag |= dp_flag::kSingleAffine;
    }
    n_oracle += dp_task_on_oracle(t);
  }
  EXPECT_EQ(n_oracle, kTasks / 3 + kTasks / 3 * 5 / 6);  // the pieces given swapped are native
  std::vector<DpTask> tasks;
  for (auto& o : owned) {
    o.task.query = o.q, o.task.target = o.t;
    tasks.push_back(o.task);
  }
  std::vector<DpResult> want(kTasks), got(kTasks);
  oracle->run(tasks, want);
  for (int round = 0; round < 2; ++round) {
    backend->run(tasks, got);
    for (size_t i = 0; i < kTasks; ++i) expect_same(want[i], got[i], tasks[i], i, name);
  }
  size_t oracle_notes = 0;
  for (const auto& m : notes) oracle_notes += m.find("run on the scalar kernels") != std::string::npos;
  EXPECT_EQ(oracle_notes, name == "scalar" ? 0u : 1u) << name;
}

// The same batch on 1 and 3 threads gives the same answers in the same order.
TEST_P(DpDifferential, ThreadCountDoesNotChangeResults) {
  auto one = test::try_backend(GetParam(), 1);
  if (!one) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  auto three = test::try_backend(GetParam(), 3);
  TaskGen gen(0x5eed0002);
  std::vector<OwnedTask> owned;
  for (size_t i = 0; i < 500; ++i) owned.push_back(gen.next());
  std::vector<DpTask> tasks;
  for (auto& o : owned) {
    o.task.query = o.q, o.task.target = o.t;
    tasks.push_back(o.task);
  }
  std::vector<DpResult> a(tasks.size()), b(tasks.size());
  one->run(tasks, a);
  three->run(tasks, b);
  for (size_t i = 0; i < tasks.size(); ++i) expect_same(a[i], b[i], tasks[i], i, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Backends, DpDifferential, ::testing::Values("cpu-sse41", "cpu-avx2", "cpu-avx512", "gpu-sim", "gpu-emu"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

}  // namespace
}  // namespace agatha

namespace agatha {
namespace {

// Long tasks and wide bands for the tiled engines (gpu-sim, and the CUDA kernel on the
// emulation): lengths up to 100 kb, bands up to 5,000, every flag combination the
// presets use and more; the scalar oracle decides. The sizes are drawn so the cells of
// the whole set stay near 2e8, which the emulation computes in a few minutes on two cores.
TEST(DpLongTask, TiledBackendsMatchTheOracleOnLongTasksAndWideBands) {
  std::mt19937_64 rng(0x5eed0004);
  struct Owned {
    std::vector<uint8_t> q, t;
    DpTask task;
  };
  static constexpr uint32_t kFlags[] = {0, 1, 2, 8, 24, 64, 66, 128, 194, 200, 65};
  static constexpr int kBands[] = {-1, 40, 200, 751, 1500, 5000};
  std::vector<Owned> owned;
  const std::vector<std::pair<int, int>> sizes = {{100000, 40},  {100000, 200}, {60000, 751}, {30000, 5000},
                                                  {20000, 1500}, {12000, 5000}, {8000, -1},   {5000, 5000}};
  for (size_t k = 0; k < sizes.size() * 2; ++k) {
    Owned o;
    const auto [len, band] = sizes[k % sizes.size()];
    o.t.resize(static_cast<size_t>(len));
    for (auto& c : o.t) c = static_cast<uint8_t>(rng() % 4);
    const uint64_t div = 2 + rng() % 15;  // percent
    for (uint8_t c : o.t) {
      const uint64_t x = rng() % 100;
      if (x < div / 3) continue;                                                           // deletion
      o.q.push_back(x < 2 * div / 3 ? static_cast<uint8_t>((c + 1 + rng() % 3) & 3) : c);  // substitution
      if (x >= 2 * div / 3 && x < div) o.q.push_back(static_cast<uint8_t>(rng() % 4));     // insertion
    }
    if (k % 5 == 4) std::fill(o.q.begin() + o.q.size() / 2, o.q.begin() + o.q.size() / 2 + 300, uint8_t{4});
    o.task.flag = kFlags[(k * 7 + rng() % 3) % std::size(kFlags)];
    o.task.w = band >= 0 ? band : kBands[rng() % std::size(kBands)];
    if (o.task.w < 0 && len > 8000) o.task.w = 500;
    o.task.zdrop = k % 3 == 0 ? -1 : 100 + static_cast<int>(rng() % 400);
    o.task.end_bonus = k % 4 == 0 ? -1 : static_cast<int>(rng() % 60);
    owned.push_back(std::move(o));
  }
  std::vector<DpTask> tasks;
  for (auto& o : owned) {
    o.task.query = o.q, o.task.target = o.t;
    tasks.push_back(o.task);
  }
  std::vector<DpResult> want(tasks.size());
  test::try_backend("scalar", 2)->run(tasks, want);
  size_t far = 0;
  for (const auto& r : want) far += r.max_t > 20000;
  EXPECT_GE(far, 4u) << "the set must reach deep into long tasks";
  for (const char* name : {"gpu-sim", "gpu-emu"}) {
    auto b = test::try_backend(name, 2);
    std::vector<DpResult> got(tasks.size());
    b->run(tasks, got);
    for (size_t i = 0; i < tasks.size(); ++i) expect_same(want[i], got[i], tasks[i], i, name);
  }
}

// A 120 kb extension: coordinates past 65,535 on every backend, identical answers.
TEST(DpLongTask, ExtensionOf120KbAgreesOnAllBackends) {
  std::mt19937_64 rng(0x5eed0003);
  std::vector<uint8_t> t(120000), q;
  for (auto& c : t) c = static_cast<uint8_t>(rng() % 4);
  for (uint8_t c : t) {  // 1% deletions, 1% insertions, 2% substitutions: no net drift
    const uint64_t x = rng() % 100;
    if (x == 0) continue;
    q.push_back(x < 3 ? static_cast<uint8_t>((c + 1) & 3) : c);
    if (x == 3) q.push_back(static_cast<uint8_t>(rng() % 4));
  }
  DpTask task;
  task.query = q, task.target = t;
  task.flag = dp_flag::kExtzOnly;
  task.w = 751, task.zdrop = 400, task.end_bonus = -1;
  std::vector<DpResult> want(1);
  test::try_backend("scalar")->run(std::span(&task, 1), want);
  EXPECT_GT(want[0].max_t, 100000);
  EXPECT_GT(want[0].max_q, 100000);
  EXPECT_FALSE(want[0].cigar.empty());
  for (const std::string& name : test::all_backends()) {
    auto b = test::try_backend(name);
    if (!b) continue;
    std::vector<DpResult> got(1);
    b->run(std::span(&task, 1), got);
    EXPECT_EQ(io::format_answer(got[0]), io::format_answer(want[0])) << name;
  }
}

}  // namespace
}  // namespace agatha
