// src/format/diff_tags.cpp — MD:Z and cs:Z as minimap2 2.24 writes them.
//
//   check_cigar          the ops and spans every function below requires
//   md_tag_value         write_MD_core
//   cs_tag_value         write_cs_core (append_identical: its run of matching bases)
//   ds_tag_value         2.31's write_cs_ds_core with is_ds (append_indel_ds: write_indel_ds)
//   diff_tag_kind        the MM_F_OUT_MD / MM_F_OUT_CS / MM_F_OUT_CS_LONG / MM_F_OUT_DS choice
//                        of mm_write_paf3 (2.31: write_cs_ds_or_MD)
#include "diff_tags.hpp"

#include <agatha/cigar.hpp>
#include <agatha/error.hpp>

#include <algorithm>

#include "text_put.hpp"

namespace agatha::format {
namespace {

// A base code as MD (upper) and cs (lower) print it; every code from 4 up is N.
char upper_base(uint8_t c) { return "ACGTN"[std::min<uint8_t>(c, 4)]; }
char lower_base(uint8_t c) { return "acgtn"[std::min<uint8_t>(c, 4)]; }

bool consumes_both(uint32_t op) { return cigar::consumes_query(op) && cigar::consumes_target(op); }

// minimap2 asserts these; here a caller's mistake becomes an Error.
void check_cigar(std::span<const uint32_t> cigar, size_t qlen, size_t tlen) {
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c);
    if (!consumes_both(op) && op != cigar::kIns && op != cigar::kDel && op != cigar::kNSkip)
      throw Error(std::string("CIGAR op '") + cigar::op_char(c) +
                  "' is not allowed in an alignment (only M, I, D, N, = and X)");
  }
  const cigar::Spans s = cigar::spans(cigar);
  if (s.query != static_cast<int64_t>(qlen) || s.target != static_cast<int64_t>(tlen))
    throw Error("CIGAR spans " + std::to_string(s.query) + " query and " + std::to_string(s.target) +
                " target bases, the alignment " + std::to_string(qlen) + " and " + std::to_string(tlen));
}

// cs's run of identical bases: ":N", or "=BASES" in the long form.
void append_identical(std::string& out, std::span<const uint8_t> bases, bool long_form) {
  if (bases.empty()) return;
  if (!long_form) {
    put(out, ':', bases.size());
    return;
  }
  out += '=';
  for (uint8_t c : bases) out += upper_base(c);
}

void append_bases(std::string& out, std::span<const uint8_t> bases) {
  for (uint8_t c : bases) out += lower_base(c);
}

// ds's indel: the bases of seq[at, at + len), with those a shift along seq could move
// bracketed. ll: how many of its first bases equal those right after it (the indel
// could move right by that much, within seq); lr: how many of its last bases equal those
// right before it (it could move left). When the two cover it, the whole indel is
// bracketed once; else "[first ll]", the middle, "[last lr]", empty parts left out.
void append_indel_ds(std::string& out, std::span<const uint8_t> seq, size_t at, size_t len) {
  size_t lr = 0, ll = 0;
  while (lr < len && lr + 1 <= at && seq[at + len - 1 - lr] == seq[at - 1 - lr]) ++lr;
  while (ll < len && at + len + ll < seq.size() && seq[at + len + ll] == seq[at + ll]) ++ll;
  const std::span<const uint8_t> indel = seq.subspan(at, len);
  if (ll + lr >= len) {
    out += '[';
    append_bases(out, indel);
    out += ']';
    return;
  }
  if (ll > 0) out += '[', append_bases(out, indel.first(ll)), out += ']';
  append_bases(out, indel.subspan(ll, len - ll - lr));
  if (lr > 0) out += '[', append_bases(out, indel.last(lr)), out += ']';
}

// cs (ds false) or ds: they differ in how an indel is written.
std::string cs_ds_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                        std::span<const uint8_t> target, bool long_form, bool ds) {
  check_cigar(cigar, query.size(), target.size());
  std::string out;
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c), len = cigar::len(c);
    if (consumes_both(op)) {
      size_t run_start = q;  // the identical run ends at each mismatch and at the op's end
      for (uint32_t j = 0; j < len; ++j) {
        if (query[q + j] == target[t + j]) continue;
        append_identical(out, query.subspan(run_start, q + j - run_start), long_form);
        put(out, '*', lower_base(target[t + j]), lower_base(query[q + j]));
        run_start = q + j + 1;
      }
      append_identical(out, query.subspan(run_start, q + len - run_start), long_form);
      q += len, t += len;
    } else if (op == cigar::kIns) {
      out += '+';
      if (ds)
        append_indel_ds(out, query, q, len);
      else
        append_bases(out, query.subspan(q, len));
      q += len;
    } else if (op == cigar::kDel) {
      out += '-';
      if (ds)
        append_indel_ds(out, target, t, len);
      else
        append_bases(out, target.subspan(t, len));
      t += len;
    } else {  // intron: its splice-site bases and length
      if (len < 2) throw Error("cs: an intron (N op) needs at least 2 bases, got " + std::to_string(len));
      put(out, '~', lower_base(target[t]), lower_base(target[t + 1]), len, lower_base(target[t + len - 2]),
          lower_base(target[t + len - 1]));
      t += len;
    }
  }
  return out;
}

}  // namespace

std::string md_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target) {
  check_cigar(cigar, query.size(), target.size());
  std::string out;
  int64_t matched = 0;  // identical bases since the last mismatch or deletion
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c), len = cigar::len(c);
    if (consumes_both(op)) {
      for (uint32_t j = 0; j < len; ++j) {
        if (query[q + j] == target[t + j]) {
          ++matched;
        } else {
          put(out, matched, upper_base(target[t + j]));
          matched = 0;
        }
      }
      q += len, t += len;
    } else if (op == cigar::kIns) {
      q += len;
    } else if (op == cigar::kDel) {
      put(out, matched, '^');
      for (uint32_t j = 0; j < len; ++j) out += upper_base(target[t + j]);
      matched = 0;
      t += len;
    } else {  // intron: not in MD, and the count carries over it
      t += len;
    }
  }
  if (matched > 0) put(out, matched);
  return out;
}

std::string cs_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target, bool long_form) {
  return cs_ds_value(cigar, query, target, long_form, false);
}

std::string ds_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target, bool long_form) {
  return cs_ds_value(cigar, query, target, long_form, true);
}

DiffTag diff_tag_kind(bool md, bool cs, bool cs_long, bool ds) {
  if (md) return DiffTag::kMd;
  if (ds) return cs_long ? DiffTag::kDsLong : DiffTag::kDsShort;
  if (cs) return cs_long ? DiffTag::kCsLong : DiffTag::kCsShort;
  return DiffTag::kNone;
}

std::string diff_tag(DiffTag kind, std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                     std::span<const uint8_t> target) {
  switch (kind) {
    case DiffTag::kMd: return "MD:Z:" + md_tag_value(cigar, query, target);
    case DiffTag::kCsShort: return "cs:Z:" + cs_tag_value(cigar, query, target, false);
    case DiffTag::kCsLong: return "cs:Z:" + cs_tag_value(cigar, query, target, true);
    case DiffTag::kDsShort: return "ds:Z:" + ds_tag_value(cigar, query, target, false);
    case DiffTag::kDsLong: return "ds:Z:" + ds_tag_value(cigar, query, target, true);
    case DiffTag::kNone: break;
  }
  return {};
}

}  // namespace agatha::format
