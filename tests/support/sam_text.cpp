#include "sam_text.hpp"

#include <gtest/gtest.h>
#include <htslib/hts.h>
#include <htslib/kstring.h>
#include <htslib/sam.h>

namespace agatha::test {

SamText split_sam(const std::vector<std::string>& lines) {
  SamText s;
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    if (line[0] == '@')
      s.header += line + '\n';
    else
      s.records.push_back(line);
  }
  return s;
}

SamText read_hts(const std::string& path, int* format) {
  SamText s;
  htsFile* fp = hts_open(path.c_str(), "r");
  if (!fp) {
    ADD_FAILURE() << "cannot open " << path;
    return s;
  }
  if (format) *format = hts_get_format(fp)->format;
  sam_hdr_t* h = sam_hdr_read(fp);
  bam1_t* b = bam_init1();
  kstring_t ks = KS_INITIALIZE;
  if (h) {
    s.header = sam_hdr_str(h) ? sam_hdr_str(h) : "";
    int ret;
    while ((ret = sam_read1(fp, h, b)) >= 0) {
      EXPECT_GE(sam_format1(h, b, &ks), 0);
      s.records.emplace_back(ks.s, ks.l);
    }
    EXPECT_EQ(ret, -1) << "read error in " << path;
  } else {
    ADD_FAILURE() << "no header in " << path;
  }
  ks_free(&ks);
  bam_destroy1(b);
  sam_hdr_destroy(h);
  hts_close(fp);
  return s;
}

}  // namespace agatha::test
