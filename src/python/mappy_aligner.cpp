// mappy's Aligner over agatha's pipeline (see the header).
#include "mappy_aligner.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <limits>
#include <thread>
#include <utility>

#include "../align/region_align.hpp"
#include "../format/diff_tags.hpp"
#include "../format/sam.hpp"
#include "../io/index_file.hpp"
#include "../io/seq_reader.hpp"

namespace agatha::python {

// minimap2's MM_F_* bits (minimap.h).
namespace mm_flag {
constexpr uint64_t kNoDiag = 0x1, kNoDual = 0x2, kCigar = 0x4, kOutSam = 0x8, kNoQual = 0x10, kOutCg = 0x20,
                   kOutCs = 0x40, kSplice = 0x80, kSpliceFor = 0x100, kSpliceRev = 0x200, kNoLjoin = 0x400,
                   kOutCsLong = 0x800, kSr = 0x1000, kFragMode = 0x2000, kNoPrint2nd = 0x4000,
                   kTwoIoThreads = 0x8000, kLongCigar = 0x10000, kIndependSeg = 0x20000, kSpliceFlank = 0x40000,
                   kSoftclip = 0x80000, kForOnly = 0x100000, kRevOnly = 0x200000, kHeapSort = 0x400000,
                   kAllChains = 0x800000, kOutMd = 0x1000000, kCopyComment = 0x2000000, kEqx = 0x4000000,
                   kPafNoHit = 0x8000000, kNoEndFlt = 0x10000000, kHardMlevel = 0x20000000, kSamHitOnly = 0x40000000,
                   kRmq = 0x80000000ULL, kQstrand = 0x100000000ULL, kNoInv = 0x200000000ULL,
                   kNoHashName = 0x400000000ULL;
}  // namespace mm_flag

void apply_extra_flags(AlignOptions& opt, uint64_t flags, bool* eqx) {
  using namespace mm_flag;
  // Bits that only change minimap2's text output (or its I/O threads): no effect on hits.
  constexpr uint64_t kOutputOnly = kCigar | kOutSam | kNoQual | kOutCg | kOutCs | kOutCsLong | kNoPrint2nd |
                                   kTwoIoThreads | kLongCigar | kSoftclip | kOutMd | kCopyComment | kPafNoHit |
                                   kSamHitOnly | kFragMode;
  const struct {
    uint64_t bit;
    bool AlignOptions::*field;
  } kSet[] = {{kNoDiag, &AlignOptions::no_diag},       {kNoDual, &AlignOptions::no_dual},
              {kSplice, &AlignOptions::splice},         {kSpliceFor, &AlignOptions::splice_for},
              {kSpliceRev, &AlignOptions::splice_rev},  {kNoLjoin, &AlignOptions::no_long_join},
              {kSr, &AlignOptions::sr},                 {kIndependSeg, &AlignOptions::independent_segments},
              {kSpliceFlank, &AlignOptions::splice_flank}, {kForOnly, &AlignOptions::for_only},
              {kRevOnly, &AlignOptions::rev_only},      {kHeapSort, &AlignOptions::heap_sort},
              {kAllChains, &AlignOptions::all_chains},  {kNoEndFlt, &AlignOptions::no_end_flt},
              {kHardMlevel, &AlignOptions::hard_mask_level}, {kRmq, &AlignOptions::rmq},
              {kQstrand, &AlignOptions::qstrand},       {kNoInv, &AlignOptions::no_inv}};
  uint64_t known = kOutputOnly | kEqx | kNoHashName;
  for (const auto& s : kSet) {
    known |= s.bit;
    if (flags & s.bit) opt.*s.field = true;
  }
  if (flags & kNoHashName) opt.hash_name = false;
  if (eqx && (flags & kEqx)) *eqx = true;
  if (flags & ~known) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(flags & ~known));
    throw OptionError(std::string("extra_flags: unknown or unsupported minimap2 flag bits ") + hex);
  }
}

struct MappyAligner::Setup {
  AlignOptions opt;
  bool eqx = false;
  std::unique_ptr<pipeline::ReadMapper> mapper;
  std::unique_ptr<pipeline::ReadAligner> aligner;
};

namespace {

// mappy's Aligner on minimap2's options: preset, then each keyword given.
AlignOptions options_of(const AlignerOptions& o, bool* eqx) {
  AlignOptions opt;
  if (!o.compat.empty()) {
    const std::optional<Release> r = parse_release(o.compat);
    if (!r) throw OptionError("compat: '" + o.compat + "' is not a release agatha follows (2.24 or 2.31)");
    opt.set_release(*r);
  }
  if (o.preset) opt.apply_preset(*o.preset);
  opt.part_bases = std::numeric_limits<uint64_t>::max() / 2;  // one part, as mappy's batch_size
  if (o.k) opt.k = *o.k;
  if (o.w) opt.w = *o.w;
  if (o.min_cnt) opt.min_cnt = *o.min_cnt;
  if (o.min_chain_score) opt.min_chain_score = *o.min_chain_score;
  if (o.min_dp_score) opt.min_dp_max = *o.min_dp_score;
  if (o.bw) opt.bw = *o.bw;
  if (o.bw_long) opt.bw_long = *o.bw_long;
  if (o.sc_ambi) opt.sc_ambi = *o.sc_ambi;
  if (o.max_chain_skip) opt.max_chain_skip = *o.max_chain_skip;
  if (o.best_n) opt.best_n = *o.best_n;
  if (o.max_frag_len) opt.max_frag_len = *o.max_frag_len;
  apply_extra_flags(opt, o.extra_flags, eqx);
  if (o.scoring.size() >= 4) {
    opt.a = o.scoring[0], opt.b = o.scoring[1], opt.q = o.scoring[2], opt.e = o.scoring[3];
    opt.q2 = opt.q, opt.e2 = opt.e;
    if (o.scoring.size() >= 6) {
      opt.q2 = o.scoring[4], opt.e2 = o.scoring[5];
      if (o.scoring.size() >= 7) opt.sc_ambi = o.scoring[6];
    }
  }
  opt.threads = std::max(1, o.n_threads);
  return opt;
}

}  // namespace

MappyAligner::MappyAligner(const AlignerOptions& o) : n_threads_(std::max(1, o.n_threads)) {
  opt_ = options_of(o, &eqx_);
  opt_.validate();
  if (o.seq) {
    index::MinimizerIndex::Builder b(opt_, "sequence");
    b.add("N/A", *o.seq, 1);
    idx_.emplace(b.finish());
    opt_.mid_occ = 1000;  // mappy: no filtering of frequent seeds
  } else {
    io::IndexParts parts(o.fn_idx_in, opt_);
    std::optional<index::MinimizerIndex> first = parts.next();
    if (!first) throw InputError("'" + o.fn_idx_in + "': no sequences");
    idx_.emplace(std::move(*first));  // mappy reads the first part only
    if (o.fn_idx_out && !parts.from_index_file()) io::save_index(*idx_, *o.fn_idx_out);
  }
  DpBackendOptions bo;
  bo.backend = o.backend;
  bo.isa = o.isa;
  bo.threads = n_threads_;
  dp_ = make_dp_backend(bo);
  backend_name_ = dp_->name();
  inline_workers_ = dp_->inline_workers();
  workers_ = std::make_unique<util::WorkerPool>(inline_workers_);
  setup_ = make_setup(opt_, eqx_);
  opt_.mid_occ = setup_->mapper->mid_occ();
}

MappyAligner::~MappyAligner() = default;

std::unique_ptr<MappyAligner::Setup> MappyAligner::make_setup(const AlignOptions& opt, bool eqx) const {
  auto s = std::make_unique<Setup>();
  s->opt = opt;
  s->eqx = eqx;
  s->mapper = std::make_unique<pipeline::ReadMapper>(*idx_, s->opt);
  s->aligner = std::make_unique<pipeline::ReadAligner>(*s->mapper, s->opt, pipeline::OutputOptions{});
  return s;
}

std::vector<Hit> MappyAligner::map(std::string_view seq, std::optional<std::string_view> seq2, std::string_view name,
                                   MapExtras extras, std::optional<int> max_frag_len,
                                   std::optional<uint64_t> extra_flags) const {
  if (!max_frag_len && !extra_flags) return map_with(*setup_, seq, seq2, name, extras);
  AlignOptions opt = opt_;
  bool eqx = eqx_;
  if (max_frag_len) opt.max_frag_len = *max_frag_len;
  if (extra_flags) apply_extra_flags(opt, *extra_flags, &eqx);
  opt.validate();
  const std::unique_ptr<Setup> s = make_setup(opt, eqx);
  return map_with(*s, seq, seq2, name, extras);
}

std::vector<Hit> MappyAligner::map_with(const Setup& s, std::string_view seq, std::optional<std::string_view> seq2,
                                        std::string_view name, MapExtras extras) const {
  std::vector<io::SeqRecord> reads(seq2 ? 2 : 1);
  reads[0].seq = seq;
  if (seq2) reads[1].seq = *seq2;
  for (io::SeqRecord& r : reads) r.name = name;
  pipeline::AlignJob job;
  job.reads = reads;
  // mm_map_aux: the second read reverse-complemented, whatever the options' pe_ori.
  if (seq2) job.flip_ori = 1;
  s.aligner->start(job);
  if (!job.done) {
    if (inline_workers_ > 0) {
      const util::WorkerPool::Lease lease(*workers_);
      align::InlineDpSource src(*dp_, lease.worker());
      s.aligner->align(job, src);
    } else {  // a backend without inline workers: passes over the DP memo
      while (!s.aligner->pass(job)) {
        std::vector<DpTask> tasks = job.memo.pending_tasks();
        std::vector<DpResult> results(tasks.size());
        {
          std::lock_guard lock(mu_);
          dp_->run(tasks, results);
        }
        job.memo.answer(std::move(results));
      }
    }
  }
  std::vector<Hit> hits;
  const index::Reference& ref = idx_->reference();
  const bool str_with_md = s.opt.release != Release::k2_24;
  const bool weak = s.mapper->weak_pairing(job.segs.size(), true);
  for (size_t i = 0; i < job.segs.size(); ++i) {
    const pipeline::SegmentJob& sg = job.segs[i];
    const auto qlen = static_cast<int32_t>(sg.read->seq.size());
    for (const map::Region& r : sg.regions) {
      Hit h;
      const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
      h.ctg = rs.name;
      h.ctg_len = static_cast<int32_t>(rs.len);
      h.r_st = r.rs, h.r_en = r.re;
      h.q_st = r.qs, h.q_en = r.qe;
      h.strand = r.rev ? -1 : 1;
      h.mapq = static_cast<uint8_t>(r.mapq);
      h.mlen = r.mlen, h.blen = r.blen;
      h.NM = r.blen - r.mlen + r.n_ambi;
      uint8_t ts = r.trans_strand;
      if (sg.flipped) {
        // mappy flips a reverse-complemented read's strand only: its coordinates stay on
        // the reverse complement, its transcript strand as found there.
        h.q_st = qlen - r.qe, h.q_en = qlen - r.qs;
        if (ts == 1 || ts == 2) ts = static_cast<uint8_t>(3 - ts);
      }
      h.trans_strand = static_cast<int8_t>(ts == 1 ? 1 : ts == 2 ? -1 : 0);
      h.is_primary = r.id == r.parent;
      // Weakly paired segments (2.31's mm_map_frag) are mapped one by one as reads of
      // their own: every hit has segment 0, as mappy reports it.
      h.seg_id = weak ? 0 : static_cast<int32_t>(i);
      h.cigar = r.cigar;
      h.str_with_md = str_with_md;
      if (r.aligned && (s.eqx || extras.cs || extras.ds || extras.md)) {
        // The tags' values without "cs:Z:" / "ds:Z:" / "MD:Z:".
        const auto tag = [&](format::DiffTag kind) { return s.aligner->printed_as(sg, r, s.eqx, kind).diff_tag.substr(5); };
        if (s.eqx) h.cigar = s.aligner->printed_as(sg, r, true, format::DiffTag::kNone).cigar;
        if (extras.cs) h.cs = tag(format::DiffTag::kCsShort);
        if (extras.ds) h.ds = tag(format::DiffTag::kDsShort);
        if (extras.md) h.MD = tag(format::DiffTag::kMd);
      }
      hits.push_back(std::move(h));
    }
  }
  return hits;
}

std::vector<std::vector<Hit>> MappyAligner::map_many(const std::vector<Query>& queries, int threads,
                                                     MapExtras extras) const {
  std::vector<std::vector<Hit>> out(queries.size());
  const int n = std::max(1, std::min<int>(threads > 0 ? threads : n_threads_, static_cast<int>(queries.size())));
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto work = [&] {
    for (size_t i; (i = next++) < queries.size();) {
      try {
        const Query& q = queries[i];
        out[i] = map_with(*setup_, q.seq, q.seq2 ? std::optional<std::string_view>(*q.seq2) : std::nullopt, q.name,
                          extras);
      } catch (...) {
        std::lock_guard lock(error_mu);
        if (!error) error = std::current_exception();
        next = queries.size();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return out;
}

std::optional<std::string> MappyAligner::seq(const std::string& name, int64_t start, int64_t end) const {
  const index::Reference& ref = idx_->reference();
  const int64_t rid = ref.find(name);
  if (rid < 0) return std::nullopt;
  const int64_t len = ref.seq(static_cast<uint32_t>(rid)).len;
  if (start < 0 || start >= len || start >= end) return std::nullopt;
  if (end < 0 || end > len) end = len;
  std::string s(static_cast<size_t>(end - start), 'N');
  std::vector<uint8_t> codes(s.size());
  ref.fetch(static_cast<uint32_t>(rid), static_cast<uint32_t>(start), static_cast<uint32_t>(end), codes.data());
  for (size_t i = 0; i < s.size(); ++i) s[i] = "ACGTN"[std::min<uint8_t>(codes[i], 4)];
  return s;
}

std::vector<std::string> MappyAligner::seq_names() const {
  std::vector<std::string> names;
  for (const index::RefSeq& s : idx_->reference().seqs()) names.push_back(s.name);
  return names;
}

int MappyAligner::k() const { return idx_->k(); }
int MappyAligner::w() const { return idx_->w(); }
int MappyAligner::n_seq() const { return static_cast<int>(idx_->reference().size()); }

}  // namespace agatha::python
