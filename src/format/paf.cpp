// minimap2 2.24's mm_write_paf3 (format.c). See paf.hpp.
#include "paf.hpp"

#include <agatha/cigar.hpp>

#include "text_put.hpp"

namespace agatha::format {

void append_paf(std::string& out, const PafRecord& r) {
  put(out, r.qname, '\t', r.qlen, '\t', r.qs, '\t', r.qe, '\t', r.rev ? '-' : '+', '\t', r.rname, '\t', r.rlen, '\t',
      r.rs, '\t', r.re, '\t', r.mlen, '\t', r.blen, '\t', r.mapq);
  append_region_tags(out, r.tags);
  put(out, "\trl:i:", r.rl);
  if (r.tags.aligned && r.cg) {
    out += "\tcg:Z:";
    cigar::append_text(out, r.cigar);
  }
  if (!r.diff_tag.empty()) put(out, '\t', r.diff_tag);
  if (!r.comment.empty()) put(out, '\t', r.comment);
  out += '\n';
}

void append_paf_unmapped(std::string& out, std::string_view qname, int32_t qlen, int32_t rl) {
  put(out, qname, '\t', qlen, "\t0\t0\t*\t*\t0\t0\t0\t0\t0\t0\trl:i:", rl, '\n');
}

}  // namespace agatha::format
