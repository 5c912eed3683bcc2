// src/io/hts_handles.hpp — owners of htslib's handles, for every file that reads or
// writes through htslib (io::BamWriter, io::SortedBamWriter, eval::AlignmentReader):
// unique_ptrs that close or free with the matching htslib call, and an owned kstring_t.
#pragma once

#include <htslib/bgzf.h>
#include <htslib/hts.h>
#include <htslib/kstring.h>
#include <htslib/sam.h>
#include <htslib/thread_pool.h>

#include <memory>

namespace agatha::io {

struct HtsFileClose {
  void operator()(htsFile* f) const noexcept { hts_close(f); }  // its result: see BamWriter::close
};
struct SamHeaderFree {
  void operator()(sam_hdr_t* h) const noexcept { sam_hdr_destroy(h); }
};
struct BamRecordFree {
  void operator()(bam1_t* b) const noexcept { bam_destroy1(b); }
};
struct BgzfClose {
  void operator()(BGZF* z) const noexcept { bgzf_close(z); }
};

struct ThreadPoolDestroy {
  void operator()(hts_tpool* p) const noexcept { hts_tpool_destroy(p); }
};

using HtsFilePtr = std::unique_ptr<htsFile, HtsFileClose>;
using SamHeaderPtr = std::unique_ptr<sam_hdr_t, SamHeaderFree>;
using BamRecordPtr = std::unique_ptr<bam1_t, BamRecordFree>;
using BgzfPtr = std::unique_ptr<BGZF, BgzfClose>;
// A thread pool shared by the files attached to it (hts_set_thread_pool): destroy it
// only after every one of them is closed.
using ThreadPoolPtr = std::unique_ptr<hts_tpool, ThreadPoolDestroy>;

// A kstring_t that frees its buffer (ks_free). htslib grows it (ks_resize, kputsn,
// sam_format1); get() hands it to htslib's functions.
class KString {
 public:
  KString() = default;
  ~KString() { ks_free(&ks_); }
  KString(const KString&) = delete;
  KString& operator=(const KString&) = delete;

  kstring_t* get() { return &ks_; }
  const char* data() const { return ks_.s; }
  size_t size() const { return ks_.l; }
  void clear() { ks_.l = 0; }
  // Replaces the content with `n` bytes at `p` (NUL-terminated); false when out of memory.
  [[nodiscard]] bool assign(const char* p, size_t n) {
    ks_.l = 0;
    (void)kputsn(p, n, &ks_);  // its int result cannot tell a length past 2^31 from EOF
    return ks_.s != nullptr && ks_.l == n;
  }

 private:
  kstring_t ks_ = KS_INITIALIZE;
};

}  // namespace agatha::io
