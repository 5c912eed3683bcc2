// src/io/bam_writer.cpp — SAM text to BAM through htslib, in the order given: the header
// and each record line parsed (bam_stream.hpp: sam_header_from_text, SamLineParser) and
// written by a BamOutStream to the destination's descriptor.
#include "bam_writer.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <agatha/error.hpp>

#include <cerrno>
#include <cstring>

#include "bam_stream.hpp"
#include "hts_handles.hpp"

namespace agatha::io {

struct BamWriter::Handles {
  ThreadPoolPtr pool;  // with threads > 0; outlives the stream (declared first)
  std::optional<BamOutStream> out;
  SamHeaderPtr header;
  BamRecordPtr record;
  std::optional<SamLineParser> parser;
};

BamWriter::BamWriter(const std::string& path, int threads)
    : path_(path == "-" ? "standard output" : path), h_(std::make_unique<Handles>()) {
  // On a throw below, h_ is freed first and then target_ removes the file it created.
  errno = 0;
  int fd;
  if (path == "-") {
    fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  } else {
    target_.emplace(path);  // a regular file through a temporary one, the rest in place
    fd = target_->create();
  }
  if (fd < 0) throw Error("cannot create BAM file " + quoted_destination(path_) + ": " + std::strerror(errno));
  if (threads > 0) {
    h_->pool.reset(hts_tpool_init(threads));
    if (!h_->pool) {
      ::close(fd);
      throw Error("cannot start " + std::to_string(threads) + " compression threads for " + quoted_destination(path_));
    }
  }
  h_->out.emplace(fd, path_, "wb", h_->pool.get());
  h_->record.reset(bam_init1());
  if (!h_->record) throw Error("out of memory opening BAM file " + quoted_destination(path_));
  h_->parser.emplace(path_);
}

// h_ goes first (the stream closes, discarding what it held), then target_ removes an
// unfinished file.
BamWriter::~BamWriter() = default;

void BamWriter::write_header(std::string_view sam_header) {
  if (!h_->out) throw Error("BAM file " + quoted_destination(path_) + " is closed");
  if (header_written_) throw Error("BAM file " + quoted_destination(path_) + ": the header was written already");
  h_->header = sam_header_from_text(sam_header, path_);
  h_->out->write_header(h_->header.get());
  header_written_ = true;
}

void BamWriter::write_records(std::string_view sam_lines) {
  if (!h_->out) throw Error("BAM file " + quoted_destination(path_) + " is closed");
  if (!header_written_) throw Error("BAM file " + quoted_destination(path_) + ": a record before the header");
  while (!sam_lines.empty()) {
    const size_t nl = sam_lines.find('\n');
    const std::string_view line = sam_lines.substr(0, nl);
    if (!line.empty()) {
      h_->parser->parse(line, h_->header.get(), h_->record.get(), n_records_ + 1);
      h_->out->write(h_->header.get(), h_->record.get());
      ++n_records_;
    }
    sam_lines.remove_prefix(nl == std::string_view::npos ? sam_lines.size() : nl + 1);
  }
}

void BamWriter::close() {
  if (!h_->out) return;
  if (!header_written_) write_header({});
  try {
    h_->out->finish();
  } catch (const Error&) {
    // The file is incomplete: it goes now, and a second close() finds nothing to do.
    h_->out.reset();
    if (target_) target_->discard();
    throw;
  }
  h_->out.reset();
  if (!target_) return;
  if (const int moved = target_->commit(); moved != 0)
    throw Error("cannot move the finished BAM file into place as " + quoted_destination(path_) + ": " +
                std::strerror(moved));
}

}  // namespace agatha::io
