// kernels/local_sw.hpp — minimap2 2.24's ksw_ll_i16 (ksw2_ll_sse.c): the local
// Smith-Waterman score minimap2 uses to look for inversions (mm_test_zdrop,
// mm_align1_inv), with its results exactly, approximations included.
//
// The query is laid out striped over 8 lanes of 16-bit scores (lane l of vector j holds
// query position j + l * slen, slen = ceil(qlen / 8)), padded to 8 * slen positions that
// score 0 against everything (2.24's ksw_ll_qinit). A target column is computed in one
// pass with the vertical gap carried along each lane, then the "lazy F" loop carries it
// across lanes, updating H but not E, and stops as soon as no lane can still gain. The
// column maximum is taken before the lazy-F updates. A gap of length L costs q + L * e
// (the first gap piece of a DpScoring; the second is not used).
// score: the best column maximum; te: the last column reaching it; qe: the last striped
// slot of that column's H holding it (it may lie in the padding, i.e. be >= qlen).
//
// Two implementations give identical results: a portable scalar one (the reference) and
// one with SSE2 intrinsics (x86-64). Both are pure and thread-safe.
#pragma once

#include <agatha/dp.hpp>

#include <cstdint>

namespace agatha::kernels {

struct LocalSwResult {
  int score = 0;
  int qe = -1, te = -1;
};

// Dispatches to the SSE2 version when it was compiled in.
LocalSwResult local_sw_i16(const uint8_t* query, int qlen, const uint8_t* target, int tlen, const DpScoring& sc);
LocalSwResult local_sw_i16_scalar(const uint8_t* query, int qlen, const uint8_t* target, int tlen, const DpScoring& sc);
// False when this build has no SSE2 version (local_sw_i16 then runs the scalar one).
bool local_sw_i16_has_simd();

}  // namespace agatha::kernels
