// src/io/bam_sort.cpp — SortedBamWriter: buffer, sort, spill to runs, merge.
//
//   SortKey, key_of          samtools sort's coordinate order of a record
//   RecordSource             what a merge reads: BufferSource (the sorted buffer),
//                            RunReader (a run file read back through htslib)
//   merge_into               k-way merge of sources into a BamOutStream, ties to the
//                            earlier source
//   SortedBamWriter::State   the header, the buffer, the runs and the thread pool;
//                            spill (buffer -> run), merge_tail (runs -> one run)
//   SortedBamWriter::close   the last merge into the output, the index, the renames
#include "bam_sort.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <agatha/error.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "bam_stream.hpp"
#include "hts_handles.hpp"

namespace agatha::io {
namespace {

// ---- the order ----

// Reference as unsigned (tid -1, unmapped, after every reference), then position, then
// strand (forward first): samtools sort's coordinate key.
struct SortKey {
  uint32_t tid;
  int64_t pos;
  uint32_t rev;
  auto operator<=>(const SortKey&) const = default;
};

SortKey key_of(const bam1_t* b) { return {static_cast<uint32_t>(b->core.tid), b->core.pos, bam_is_rev(b) ? 1u : 0u}; }

// CSI's finest bins, as samtools index and sort --write-index use by default.
constexpr int kCsiMinShift = 14;
// The largest reference a BAI index holds: 5 levels of bins above 2^14-base bins.
constexpr int64_t kBaiMaxLength = int64_t{1} << 29;

// ---- what a merge reads ----

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // The current record, or nullptr when the source is exhausted.
  [[nodiscard]] virtual const bam1_t* current() const = 0;
  virtual void advance() = 0;
};

struct Buffered {
  SortKey key;
  BamRecordPtr rec;
};

class BufferSource final : public RecordSource {
 public:
  explicit BufferSource(const std::vector<Buffered>& buf) : buf_(buf) {}
  const bam1_t* current() const override { return i_ < buf_.size() ? buf_[i_].rec.get() : nullptr; }
  void advance() override { ++i_; }

 private:
  const std::vector<Buffered>& buf_;
  size_t i_ = 0;
};

// A run file read back: htslib decompresses it (on the pool's threads, with one).
class RunReader final : public RecordSource {
 public:
  RunReader(const std::string& path, hts_tpool* pool) : path_(path), rec_(bam_init1()) {
    file_.reset(hts_open(path.c_str(), "r"));
    if (!file_) throw Error("cannot open the temporary file '" + path + "': " + std::strerror(errno ? errno : EIO));
    if (pool) {
      pool_.pool = pool;
      if (hts_set_thread_pool(file_.get(), &pool_) != 0)
        throw Error("cannot attach the decompression threads to the temporary file '" + path + "'");
    }
    header_.reset(sam_hdr_read(file_.get()));
    if (!header_ || !rec_) throw Error("cannot read the temporary file '" + path + "'");
    advance();
  }
  const bam1_t* current() const override { return at_end_ ? nullptr : rec_.get(); }
  void advance() override {
    const int r = sam_read1(file_.get(), header_.get(), rec_.get());
    if (r < -1) throw Error("cannot read the temporary file '" + path_ + "' (truncated or corrupt)");
    at_end_ = r == -1;
  }

 private:
  std::string path_;
  HtsFilePtr file_;
  htsThreadPool pool_{nullptr, 0};
  SamHeaderPtr header_;
  BamRecordPtr rec_;
  bool at_end_ = false;
};

// Writes the records of `sources` (each in order) to `out` in order; equal keys go to
// the earlier source (the earlier input), so the merge is stable. Returns the count.
int64_t merge_into(std::vector<std::unique_ptr<RecordSource>>& sources, const sam_hdr_t* h, BamOutStream& out) {
  using Head = std::pair<SortKey, size_t>;  // the current record's key, and its source
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (size_t i = 0; i < sources.size(); ++i)
    if (const bam1_t* b = sources[i]->current()) heads.emplace(key_of(b), i);
  int64_t n = 0;
  while (!heads.empty()) {
    const size_t i = heads.top().second;
    heads.pop();
    out.write(h, sources[i]->current());
    ++n;
    sources[i]->advance();
    if (const bam1_t* b = sources[i]->current()) heads.emplace(key_of(b), i);
  }
  return n;
}

// ---- sizes ----

std::string four_digits(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", n);
  return buf;
}

}  // namespace

uint64_t parse_mem_size(std::string_view text, const std::string& option) {
  const auto fail = [&] {
    throw OptionError(option + " takes a size in bytes with an optional K, M or G suffix (such as 768M), not '" +
                      std::string(text) + "'");
  };
  uint64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, n);
  if (ec != std::errc() || p == text.data()) fail();
  int shift = 0;
  if (p != end) {
    switch (*p) {
      case 'k':
      case 'K': shift = 10; break;
      case 'm':
      case 'M': shift = 20; break;
      case 'g':
      case 'G': shift = 30; break;
      default: fail();
    }
    if (p + 1 != end) fail();
  }
  if (n == 0) throw OptionError(option + " must be positive");
  if (n > (std::numeric_limits<uint64_t>::max() >> 1 >> shift))
    throw OptionError(option + " '" + std::string(text) + "' is too large");
  return n << shift;
}

std::string index_path_for(const std::string& bam_path, IndexFormat format) {
  return bam_path + (format == IndexFormat::kBai ? ".bai" : ".csi");
}

// ---- the writer's state ----

struct SortedBamWriter::State {
  struct Run {
    std::unique_ptr<TempFile> file;
    int level;  // 0: one buffer; L + 1: fan_in runs of level L merged
  };

  ThreadPoolPtr pool;  // declared first: outlives every stream and reader below
  SamHeaderPtr header;
  BamRecordPtr scratch;  // the next record parsed
  std::optional<SamLineParser> parser;
  std::vector<Buffered> buffer;
  uint64_t buffer_bytes = 0;
  std::vector<Run> runs;
  int runs_written = 0;
  std::string run_prefix;  // "PATH.tmp.PID."
  std::optional<BamOutStream> out;

  // A new run file, NNNN counting every run of this sort.
  std::unique_ptr<TempFile> new_run_file(int* fd) {
    auto file = std::make_unique<TempFile>(run_prefix + four_digits(runs_written) + ".bam");
    errno = 0;
    *fd = file->create();
    if (*fd < 0) throw Error("cannot create the temporary file '" + file->path() + "': " + std::strerror(errno));
    ++runs_written;
    return file;
  }

  // Writes the sources, merged, as a run of `level` at the end of `runs`.
  void write_run(std::vector<std::unique_ptr<RecordSource>>& sources, int level) {
    int fd;
    auto file = new_run_file(&fd);
    BamOutStream s(fd, file->path(), "wb1", pool.get());
    s.write_header(header.get());
    merge_into(sources, header.get(), s);
    s.finish();
    runs.push_back({std::move(file), level});
  }

  // The buffer, sorted, becomes a run; runs of one level are merged fan_in at a time.
  void spill(int fan_in) {
    std::stable_sort(buffer.begin(), buffer.end(), [](const Buffered& a, const Buffered& b) { return a.key < b.key; });
    {
      std::vector<std::unique_ptr<RecordSource>> src;
      src.push_back(std::make_unique<BufferSource>(buffer));
      write_run(src, 0);
    }
    buffer.clear();
    buffer_bytes = 0;
    for (;;) {
      const int level = runs.back().level;
      const auto same = std::find_if(runs.rbegin(), runs.rend(), [level](const Run& r) { return r.level != level; });
      if (same - runs.rbegin() < fan_in) break;
      merge_tail(fan_in);
    }
  }

  // The last n runs (the latest input) merged into one run in their place.
  void merge_tail(int n) {
    const auto first = runs.end() - n;
    std::vector<Run> merged(std::make_move_iterator(first), std::make_move_iterator(runs.end()));
    runs.erase(first, runs.end());
    int level = 0;
    {
      std::vector<std::unique_ptr<RecordSource>> src;  // closed before `merged` removes the files
      for (const Run& r : merged) {
        src.push_back(std::make_unique<RunReader>(r.file->path(), pool.get()));
        level = std::max(level, r.level + 1);
      }
      write_run(src, level);
    }
  }
};

SortedBamWriter::SortedBamWriter(const std::string& path, const SortOptions& opt)
    : path_(path), index_path_(index_path_for(path, opt.index)), opt_(opt), st_(std::make_unique<State>()) {
  if (path == "-")
    throw Error("a sorted BAM file is written to a file, not to standard output: its index goes beside it");
  if (opt_.fan_in < 2) opt_.fan_in = 2;
  out_target_.emplace(path);
  if (!out_target_->via_temp())
    throw Error("cannot write a sorted BAM file to '" + path +
                "': not a regular file (its index and temporary files go beside it)");
  index_target_.emplace(index_path_);
  errno = 0;
  const int fd = out_target_->create();
  if (fd < 0) throw Error("cannot create BAM file '" + path + "': " + std::strerror(errno));
  if (opt_.threads > 1) {
    st_->pool.reset(hts_tpool_init(opt_.threads));
    if (!st_->pool) {
      ::close(fd);
      throw Error("cannot start " + std::to_string(opt_.threads) + " compression threads for '" + path + "'");
    }
  }
  st_->out.emplace(fd, path, "wb", st_->pool.get());
  const int index_fd = index_target_->create();
  if (index_fd < 0) throw Error("cannot create the index file '" + index_path_ + "': " + std::strerror(errno));
  ::close(index_fd);  // htslib writes it by name (sam_idx_save)
  st_->run_prefix = out_target_->open_path() + ".";
  st_->scratch.reset(bam_init1());
  if (!st_->scratch) throw Error("out of memory opening BAM file '" + path + "'");
  st_->parser.emplace(path);
}

// st_ goes first (streams closed, run files removed), then the targets remove the
// output's and the index's temporary files.
SortedBamWriter::~SortedBamWriter() = default;

int SortedBamWriter::runs_written() const { return st_->runs_written; }

void SortedBamWriter::write_header(std::string_view sam_header) {
  if (closed_) throw Error("BAM file '" + path_ + "' is closed");
  if (header_written_) throw Error("BAM file '" + path_ + "': the header was written already");
  SamHeaderPtr h = sam_header_from_text(sam_header, path_);
  // As samtools sort: SO:coordinate on the @HD line, or a new @HD line; the grouping
  // (GO) and sub-sort (SS) of the input no longer hold.
  if (sam_hdr_update_hd(h.get(), "SO", "coordinate") != 0 &&
      sam_hdr_add_line(h.get(), "HD", "VN", SAM_FORMAT_VERSION, "SO", "coordinate", nullptr) != 0)
    throw Error("cannot set the sort order in the header of BAM file '" + path_ + "'");
  for (const char* tag : {"GO", "SS"}) (void)sam_hdr_remove_tag_hd(h.get(), tag);
  if (opt_.index == IndexFormat::kBai) {
    for (int i = 0; i < sam_hdr_nref(h.get()); ++i) {
      if (sam_hdr_tid2len(h.get(), i) > kBaiMaxLength)
        throw Error("cannot index BAM file '" + path_ + "' with BAI: reference '" + sam_hdr_tid2name(h.get(), i) +
                    "' is longer than 2^29 bases, the most a BAI index holds (a CSI index has no such limit)");
    }
  }
  st_->header = std::move(h);
  header_written_ = true;
}

void SortedBamWriter::write_records(std::string_view sam_lines) {
  if (closed_) throw Error("BAM file '" + path_ + "' is closed");
  if (!header_written_) throw Error("BAM file '" + path_ + "': a record before the header");
  State& st = *st_;
  while (!sam_lines.empty()) {
    const size_t nl = sam_lines.find('\n');
    const std::string_view line = sam_lines.substr(0, nl);
    sam_lines.remove_prefix(nl == std::string_view::npos ? sam_lines.size() : nl + 1);
    if (line.empty()) continue;
    st.parser->parse(line, st.header.get(), st.scratch.get(), n_records_ + 1);
    ++n_records_;
    const SortKey key = key_of(st.scratch.get());
    st.buffer_bytes += sizeof(Buffered) + sizeof(bam1_t) + st.scratch->m_data;
    st.buffer.push_back({key, std::move(st.scratch)});
    st.scratch.reset(bam_init1());
    if (!st.scratch) throw std::bad_alloc();
    if (st.buffer_bytes >= opt_.mem_bytes) st.spill(opt_.fan_in);
  }
}

void SortedBamWriter::close() {
  if (closed_) return;
  if (!header_written_) write_header({});
  // From here on the writer is closed, also when this throws: the destructor then
  // removes every file it made, and a second close() does nothing.
  closed_ = true;
  State& st = *st_;
  std::stable_sort(st.buffer.begin(), st.buffer.end(),
                   [](const Buffered& a, const Buffered& b) { return a.key < b.key; });
  while (st.runs.size() > static_cast<size_t>(opt_.fan_in)) st.merge_tail(opt_.fan_in);
  {
    std::vector<std::unique_ptr<RecordSource>> src;
    for (const State::Run& r : st.runs) src.push_back(std::make_unique<RunReader>(r.file->path(), st.pool.get()));
    src.push_back(std::make_unique<BufferSource>(st.buffer));
    const int min_shift = opt_.index == IndexFormat::kBai ? 0 : kCsiMinShift;
    st.out->write_header(st.header.get(), {index_target_->open_path(), min_shift});
    merge_into(src, st.header.get(), *st.out);
  }
  st.out->finish();
  st.out.reset();
  st.runs.clear();
  st.buffer.clear();
  // The index was written before the BAM file's last block: make it the newer file.
  (void)::utimensat(AT_FDCWD, index_target_->open_path().c_str(), nullptr, 0);
  // The index first: if the BAM file could not be moved into place after it, the old
  // BAM file would be described by the new index; so that one is then removed.
  if (const int moved = index_target_->commit(); moved != 0)
    throw Error("cannot move the index into place as '" + index_path_ + "': " + std::strerror(moved));
  if (const int moved = out_target_->commit(); moved != 0) {
    std::remove(index_path_.c_str());
    throw Error("cannot move the finished BAM file into place as '" + path_ + "': " + std::strerror(moved));
  }
  const std::string other =
      index_path_for(path_, opt_.index == IndexFormat::kBai ? IndexFormat::kCsi : IndexFormat::kBai);
  struct stat sb;
  if (::lstat(other.c_str(), &sb) == 0 && S_ISREG(sb.st_mode)) std::remove(other.c_str());
}

}  // namespace agatha::io
