// src/io/bam_stream.cpp — SAM text to bam1_t (sam_hdr_add_lines, sam_parse1) and bam1_t
// to a BAM file (hts_hopen "wb", sam_hdr_write, sam_idx_init, sam_write1, sam_idx_save).
// Every htslib return code is checked; the Error names the destination and the record.
#include "bam_stream.hpp"

#include <fcntl.h>
#include <htslib/hfile.h>
#include <unistd.h>
#include <agatha/error.hpp>

#include <array>
#include <cerrno>
#include <cstring>

namespace agatha::io {
namespace {

std::string errno_text(int err) { return std::strerror(err ? err : EIO); }

// QNAME, FLAG, RNAME, POS, MAPQ, CIGAR, RNEXT of a SAM line; fields it lacks are empty
// (sam_parse1 then reports the line as truncated).
std::array<std::string_view, 7> split_fields(std::string_view line) {
  std::array<std::string_view, 7> f{};
  for (std::string_view& x : f) {
    const size_t tab = line.find('\t');
    x = line.substr(0, tab);
    if (tab == std::string_view::npos) break;
    line.remove_prefix(tab + 1);
  }
  return f;
}

}  // namespace

std::string quoted_destination(const std::string& path) { return path == "standard output" ? path : "'" + path + "'"; }

SamHeaderPtr sam_header_from_text(std::string_view sam_header, const std::string& dest) {
  SamHeaderPtr h(sam_hdr_init());
  if (!h) throw Error("out of memory opening BAM file " + quoted_destination(dest));
  // sam_hdr_add_lines reads up to len bytes or a NUL; a private copy supplies the NUL.
  const std::string text(sam_header);
  if (!text.empty() && sam_hdr_add_lines(h.get(), text.c_str(), text.size()) != 0)
    throw Error("cannot parse the SAM header for BAM file " + quoted_destination(dest));
  return h;
}

void SamLineParser::parse(std::string_view line, sam_hdr_t* h, bam1_t* b, int64_t record_no) {
  const auto fields = split_fields(line);
  const auto fail_record = [&](const std::string& why) {
    throw Error("cannot convert SAM record " + std::to_string(record_no) + " ('" + std::string(fields[0]) +
                "') to BAM for " + quoted_destination(dest_) + why);
  };
  if (!line_.assign(line.data(), line.size()))
    throw Error("out of memory writing BAM file " + quoted_destination(dest_));
  if (sam_parse1(line_.get(), h, b) < 0) fail_record("");
  // htslib only warns about a reference name missing from the header and writes the
  // record as unplaced; here that loses data, so it is an error.
  if (fields[2] != "*" && b->core.tid < 0) fail_record(": RNAME '" + std::string(fields[2]) + "' is not in the header");
  if (fields[6] != "*" && fields[6] != "=" && b->core.mtid < 0)
    fail_record(": RNEXT '" + std::string(fields[6]) + "' is not in the header");
}

BamOutStream::BamOutStream(int fd, std::string dest, const char* mode, hts_tpool* pool)
    : dest_(std::move(dest)), fd_(fd) {
  const auto fail_open = [this](int err) {
    throw Error("cannot create BAM file " + quoted_destination(dest_) + ": " + errno_text(err));
  };
  errno = 0;
  hFILE* hf = hdopen(fd_, "w");
  if (!hf) {
    const int err = errno;
    ::close(fd_);
    fail_open(err);
  }
  file_.reset(hts_hopen(hf, dest_.c_str(), mode));
  if (!file_) {
    const int err = errno;
    hclose_abruptly(hf);
    fail_open(err);
  }
  if (pool) {
    pool_.pool = pool;
    if (hts_set_thread_pool(file_.get(), &pool_) != 0)
      throw Error("cannot attach the compression threads to BAM file " + quoted_destination(dest_));
  }
}

BamOutStream::~BamOutStream() { close_discarding(); }

// hts_close gives up without freeing the BGZF stream (and its buffers) when its last
// flush fails, as it does on a full disk. So the file is closed with its descriptor
// pointed at /dev/null: the flush succeeds, everything is freed, and the data htslib
// still held (its end-of-file block, or buffers after an error) goes nowhere.
// The errors already reported are cleared too: hts_close would otherwise report them
// again, with the same early return.
void BamOutStream::close_discarding() noexcept {
  if (!file_) return;
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, fd_);
    ::close(null_fd);
  }
  BGZF* z = file_->fp.bgzf;
  z->errcode = 0;
  hclearerr(z->fp);
  hts_close(file_.release());
}

void BamOutStream::fail_write(int err) const {
  throw Error("cannot write BAM file " + quoted_destination(dest_) + ": " + errno_text(err));
}

void BamOutStream::write_header(sam_hdr_t* h, const BamIndexSpec& index) {
  errno = 0;
  if (sam_hdr_write(file_.get(), h) != 0) fail_write(errno);
  if (index.path.empty()) return;
  index_path_ = index.path;  // htslib keeps the pointer until sam_idx_save
  if (sam_idx_init(file_.get(), h, index.min_shift, index_path_.c_str()) != 0)
    throw Error("cannot start the index " + quoted_destination(index_path_) + " of BAM file " +
                quoted_destination(dest_));
  indexed_ = true;
}

void BamOutStream::write(const sam_hdr_t* h, const bam1_t* b) {
  errno = 0;
  if (sam_write1(file_.get(), h, b) < 0) fail_write(errno);
}

void BamOutStream::finish() {
  if (!file_) return;
  // Everything htslib holds goes to the file here, where each failure is seen; then the
  // end-of-file block (the SAM specification's fixed 28 bytes) is written directly and
  // htslib is closed with nothing left that could fail (see close_discarding).
  static constexpr unsigned char kEofBlock[28] = {0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff, 0x06, 0, 0x42, 0x43,
                                                  0x02, 0,    0x1b, 0,    3, 0, 0, 0, 0, 0,    0,    0, 0,    0};
  BGZF* z = file_->fp.bgzf;
  errno = 0;
  int err = 0;
  bool index_failed = false;
  // The data first, so that a failure here is the BAM file's; then sam_idx_save records
  // where the last block ends and writes the index file.
  if (bgzf_flush(z) != 0) {
    err = errno ? errno : EIO;
  } else if (indexed_ && sam_idx_save(file_.get()) != 0) {
    err = errno ? errno : EIO;
    index_failed = true;
  }
  if (!err && hflush(z->fp) != 0) err = errno ? errno : EIO;
  for (size_t done = 0; !err && done < sizeof kEofBlock;) {
    const ssize_t n = ::write(fd_, kEofBlock + done, sizeof kEofBlock - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      err = n < 0 ? errno : EIO;
    else
      done += static_cast<size_t>(n);
  }
  close_discarding();
  if (index_failed)
    throw Error("cannot write the index " + quoted_destination(index_path_) + " of BAM file " +
                quoted_destination(dest_) + ": " + errno_text(err));
  if (err) fail_write(err);
}

}  // namespace agatha::io
