// src/io/bam_writer.cpp — SAM text to BAM through htslib (hts_open "wb", sam_hdr_add_lines,
// sam_parse1, sam_write1). Every htslib return code is checked; htslib's own
// "[E::...]" line on stderr stays, the Error adds the destination and the record.
#include "bam_writer.hpp"

#include <fcntl.h>
#include <htslib/hfile.h>
#include <unistd.h>
#include <agatha/error.hpp>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "hts_handles.hpp"

namespace agatha::io {

struct BamWriter::Handles {
  HtsFilePtr file;
  SamHeaderPtr header;
  BamRecordPtr record;
  KString line;  // a record's private copy: sam_parse1 cuts its input at the tabs
  int fd = -1;  // the descriptor under file (htslib closes it)

  // hts_close gives up without freeing the BGZF stream (and its buffers) when its last
  // flush fails, as it does on a full disk. So the file is closed with its descriptor
  // pointed at /dev/null: the flush succeeds, everything is freed, and the data htslib
  // still held (its end-of-file block, or buffers after an error) goes nowhere.
  // The errors already reported are cleared too: hts_close would otherwise report them
  // again, with the same early return.
  void close_discarding() {
    if (!file) return;
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd >= 0) {
      ::dup2(null_fd, fd);
      ::close(null_fd);
    }
    BGZF* z = file->fp.bgzf;
    z->errcode = 0;
    hclearerr(z->fp);
    hts_close(file.release());
  }
};

namespace {

std::string quoted(const std::string& path) { return path == "standard output" ? path : "'" + path + "'"; }

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

BamWriter::BamWriter(const std::string& path, int threads)
    : path_(path == "-" ? "standard output" : path), h_(std::make_unique<Handles>()) {
  // On a throw below, h_ is freed first and then target_ removes the file it created.
  const auto fail_open = [this](int err) {
    throw Error("cannot create BAM file " + quoted(path_) + ": " + errno_text(err));
  };
  errno = 0;
  if (path == "-") {
    h_->fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  } else {
    target_.emplace(path);  // a regular file through a temporary one, the rest in place
    h_->fd = target_->create();
  }
  if (h_->fd < 0) fail_open(errno);
  hFILE* hf = hdopen(h_->fd, "w");
  if (!hf) {
    const int err = errno;
    ::close(h_->fd);
    fail_open(err);
  }
  h_->file.reset(hts_hopen(hf, path.c_str(), "wb"));
  if (!h_->file) {
    const int err = errno;
    hclose_abruptly(hf);
    fail_open(err);
  }
  if (threads > 0 && hts_set_threads(h_->file.get(), threads) != 0)
    throw Error("cannot start " + std::to_string(threads) + " compression threads for " + quoted(path_));
  h_->header.reset(sam_hdr_init());
  h_->record.reset(bam_init1());
  if (!h_->header || !h_->record) throw Error("out of memory opening BAM file " + quoted(path_));
}

BamWriter::~BamWriter() {
  if (h_ && h_->file) h_->close_discarding();  // then target_ removes an unfinished file
}

void BamWriter::fail_write(int err) const {
  throw Error("cannot write BAM file " + quoted(path_) + ": " + errno_text(err));
}

void BamWriter::write_header(std::string_view sam_header) {
  if (!h_->file) throw Error("BAM file " + quoted(path_) + " is closed");
  if (header_written_) throw Error("BAM file " + quoted(path_) + ": the header was written already");
  // sam_hdr_add_lines reads up to len bytes or a NUL; a private copy supplies the NUL.
  const std::string text(sam_header);
  if (!text.empty() && sam_hdr_add_lines(h_->header.get(), text.c_str(), text.size()) != 0)
    throw Error("cannot parse the SAM header for BAM file " + quoted(path_));
  errno = 0;
  if (sam_hdr_write(h_->file.get(), h_->header.get()) != 0) fail_write(errno);
  header_written_ = true;
}

void BamWriter::write_records(std::string_view sam_lines) {
  if (!h_->file) throw Error("BAM file " + quoted(path_) + " is closed");
  if (!header_written_) throw Error("BAM file " + quoted(path_) + ": a record before the header");
  while (!sam_lines.empty()) {
    const size_t nl = sam_lines.find('\n');
    const std::string_view line = sam_lines.substr(0, nl);
    if (!line.empty()) write_line(line);
    sam_lines.remove_prefix(nl == std::string_view::npos ? sam_lines.size() : nl + 1);
  }
}

void BamWriter::write_line(std::string_view line) {
  const auto fields = split_fields(line);
  const auto fail_record = [&](const std::string& why) {
    throw Error("cannot convert SAM record " + std::to_string(n_records_ + 1) + " ('" + std::string(fields[0]) +
                "') to BAM for " + quoted(path_) + why);
  };
  if (!h_->line.assign(line.data(), line.size())) throw Error("out of memory writing BAM file " + quoted(path_));
  bam1_t* b = h_->record.get();
  if (sam_parse1(h_->line.get(), h_->header.get(), b) < 0) fail_record("");
  // htslib only warns about a reference name missing from the header and writes the
  // record as unplaced; here that loses data, so it is an error.
  if (fields[2] != "*" && b->core.tid < 0) fail_record(": RNAME '" + std::string(fields[2]) + "' is not in the header");
  if (fields[6] != "*" && fields[6] != "=" && b->core.mtid < 0)
    fail_record(": RNEXT '" + std::string(fields[6]) + "' is not in the header");
  errno = 0;
  if (sam_write1(h_->file.get(), h_->header.get(), b) < 0) fail_write(errno);
  ++n_records_;
}

void BamWriter::close() {
  if (!h_->file) return;
  if (!header_written_) write_header({});
  // Everything htslib holds goes to the file here, where each failure is seen; then the
  // end-of-file block (the SAM specification's fixed 28 bytes) is written directly and
  // htslib is closed with nothing left that could fail (see close_discarding).
  static constexpr unsigned char kEofBlock[28] = {0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff, 0x06, 0, 0x42, 0x43,
                                                  0x02, 0,    0x1b, 0,    3, 0, 0, 0, 0, 0,    0,    0, 0,    0};
  BGZF* z = h_->file->fp.bgzf;
  errno = 0;
  int err = 0;
  if (bgzf_flush(z) != 0 || hflush(z->fp) != 0) err = errno ? errno : EIO;
  for (size_t done = 0; !err && done < sizeof kEofBlock;) {
    const ssize_t n = ::write(h_->fd, kEofBlock + done, sizeof kEofBlock - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) err = n < 0 ? errno : EIO;
    else done += static_cast<size_t>(n);
  }
  h_->close_discarding();
  if (!target_) {
    if (err) fail_write(err);
    return;
  }
  if (err) {
    target_->discard();
    fail_write(err);
  }
  if (const int moved = target_->commit(); moved != 0)
    throw Error("cannot move the finished BAM file into place as " + quoted(path_) + ": " + errno_text(moved));
}

}  // namespace agatha::io
