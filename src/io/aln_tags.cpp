// src/io/aln_tags.cpp — MD:Z, cs:Z, --eqx and the `-c` PAF line as minimap2 2.24 writes
// them.
//
//   check_cigar          the ops and spans every function below requires
//   md_tag_value         write_MD_core
//   cs_tag_value         write_cs_core (append_identical: its run of matching bases)
//   diff_tag_kind        the MM_F_OUT_MD / MM_F_OUT_CS / MM_F_OUT_CS_LONG choice of mm_write_paf3
//   eqx_cigar            mm_update_cigar_eqx
//   append_paf_aligned   mm_write_paf3 with write_tags, for a region with an alignment
//   append_paf_unmapped  mm_write_paf3 without a region
#include "aln_tags.hpp"

#include <agatha/error.hpp>
#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdio>

#include "../align/cigar_fix.hpp"
#include "text_put.hpp"

namespace agatha::io {
namespace {

using align::cigar_len;
using align::cigar_make;
using align::cigar_op;

constexpr uint32_t kCigarEq = 7, kCigarDiff = 8;  // '=' and 'X' in "MIDNSHP=X"


// A base code as MD (upper) and cs (lower) print it; every code from 4 up is N.
char upper_base(uint8_t c) { return "ACGTN"[std::min<uint8_t>(c, 4)]; }
char lower_base(uint8_t c) { return "acgtn"[std::min<uint8_t>(c, 4)]; }

bool consumes_both(uint32_t op) { return op == align::kCigarMatch || op == kCigarEq || op == kCigarDiff; }

// minimap2 asserts these; here a caller's mistake becomes an Error.
void check_cigar(std::span<const uint32_t> cigar, size_t qlen, size_t tlen) {
  int64_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar_op(c), len = cigar_len(c);
    if (consumes_both(op))
      q += len, t += len;
    else if (op == align::kCigarIns)
      q += len;
    else if (op == align::kCigarDel || op == align::kCigarNSkip)
      t += len;
    else
      throw Error(std::string("CIGAR op '") + align::kCigarOps[std::min<uint32_t>(op, 8)] +
                  "' is not allowed in an alignment (only M, I, D, N, = and X)");
  }
  if (q != static_cast<int64_t>(qlen) || t != static_cast<int64_t>(tlen))
    throw Error("CIGAR spans " + std::to_string(q) + " query and " + std::to_string(t) +
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

// "%.4f", or "0" when exactly 0 (write_tags' de:f).
void append_de(std::string& out, double de) {
  if (de == 0.0) {
    out += '0';
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", de);
  out += buf;
}

}  // namespace

std::string md_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target) {
  check_cigar(cigar, query.size(), target.size());
  std::string out;
  int64_t matched = 0;  // identical bases since the last mismatch or deletion
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar_op(c), len = cigar_len(c);
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
    } else if (op == align::kCigarIns) {
      q += len;
    } else if (op == align::kCigarDel) {
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
  check_cigar(cigar, query.size(), target.size());
  std::string out;
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar_op(c), len = cigar_len(c);
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
    } else if (op == align::kCigarIns) {
      out += '+';
      append_bases(out, query.subspan(q, len));
      q += len;
    } else if (op == align::kCigarDel) {
      out += '-';
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

DiffTag diff_tag_kind(bool md, bool cs, bool cs_long) {
  if (md) return DiffTag::kMd;
  if (cs) return cs_long ? DiffTag::kCsLong : DiffTag::kCsShort;
  return DiffTag::kNone;
}

std::string diff_tag(DiffTag kind, std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                     std::span<const uint8_t> target) {
  switch (kind) {
    case DiffTag::kMd: return "MD:Z:" + md_tag_value(cigar, query, target);
    case DiffTag::kCsShort: return "cs:Z:" + cs_tag_value(cigar, query, target, false);
    case DiffTag::kCsLong: return "cs:Z:" + cs_tag_value(cigar, query, target, true);
    case DiffTag::kNone: break;
  }
  return {};
}

std::vector<uint32_t> eqx_cigar(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                std::span<const uint8_t> target) {
  check_cigar(cigar, query.size(), target.size());
  std::vector<uint32_t> out;
  out.reserve(cigar.size());
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar_op(c), len = cigar_len(c);
    if (op == align::kCigarMatch) {
      // Alternating runs: a run ends where equality of the codes flips.
      for (uint32_t j = 0; j < len;) {
        const bool same = query[q + j] == target[t + j];
        uint32_t l = 1;
        while (j + l < len && (query[q + j + l] == target[t + j + l]) == same) ++l;
        out.push_back(cigar_make(l, same ? kCigarEq : kCigarDiff));
        j += l;
      }
    } else {
      out.push_back(c);
    }
    if (consumes_both(op))
      q += len, t += len;
    else if (op == align::kCigarIns)
      q += len;
    else
      t += len;
  }
  return out;
}

void append_paf_aligned(std::string& out, const PafRecord& r) {
  put(out, r.qname, '\t', r.qlen, '\t', r.qs, '\t', r.qe, '\t', r.rev ? '-' : '+', '\t', r.rname, '\t', r.rlen, '\t',
      r.rs, '\t', r.re, '\t', r.mlen, '\t', r.blen, '\t', r.mapq);
  put(out, "\tNM:i:", r.nm, "\tms:i:", r.ms, "\tAS:i:", r.as, "\tnn:i:", r.nn);
  if (r.ts) put(out, "\tts:A:", r.ts);
  put(out, "\ttp:A:", r.tp, "\tcm:i:", r.cm, "\ts1:i:", r.s1);
  if (r.s2) put(out, "\ts2:i:", *r.s2);
  out += "\tde:f:";
  append_de(out, r.de);
  if (r.zd) put(out, "\tzd:i:", r.zd);
  put(out, "\trl:i:", r.rl, "\tcg:Z:");
  for (uint32_t c : r.cigar) put(out, cigar_len(c), align::kCigarOps[std::min<uint32_t>(cigar_op(c), 8)]);
  if (!r.diff_tag.empty()) put(out, '\t', r.diff_tag);
  if (!r.comment.empty()) put(out, '\t', r.comment);
  out += '\n';
}

void append_paf_unmapped(std::string& out, std::string_view qname, int32_t qlen, int32_t rl) {
  put(out, qname, '\t', qlen, "\t0\t0\t*\t*\t0\t0\t0\t0\t0\t0\trl:i:", rl, '\n');
}

}  // namespace agatha::io
