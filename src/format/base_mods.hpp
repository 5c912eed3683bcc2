// src/format/base_mods.hpp — base-modification tags (SAMtags: MM, ML, MN) of a read's
// copied comment (-y) made true for a record whose SEQ holds only part of the read.
//
// minimap2 copies the comment verbatim, so a hard-clipped record (a supplementary one
// without -Y) carries MM/ML calls that count bases of the whole read while its SEQ holds
// a slice of it: every tool that reads them then places the calls on the wrong bases, or
// rejects the record. trim_base_mods rewrites them for the slice:
//   - MM's skip counts count, for each modification type, the bases of the read as
//     sequenced (before any reverse complement) equal to the type's base (any base for
//     N; T also for U); calls on bases outside the slice are dropped and the first kept
//     call's count restarts at the slice's first base; a type left without calls is
//     left out (a `.` type without calls would say its bases in the slice are all
//     unmodified, but htslib up to 1.16 decodes such a type as calls on other types'
//     bases);
//   - ML keeps the probabilities of the kept calls (one per modification code of the
//     type: `C+mh` has two a call);
//   - MN:i, the length of SEQ the tags were written for, is set to the slice's length
//     (replaced if the comment has one), so readers can tell the tags match SEQ.
// The older names Mm/Ml are rewritten the same way. A comment without MM (or Mm) is
// returned unchanged, as is one whose MM cannot be parsed or does not agree with ML
// and the sequence (there is no truer version to write).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agatha::format {

// The comment `comment` (SAM tags separated by tabs, as -y copies it) with MM/ML/MN
// rewritten for the slice [begin, end) of `seq`, the read as sequenced; nullopt when
// nothing changes (no MM tag, or one that cannot be parsed).
[[nodiscard]] std::optional<std::string> trim_base_mods(std::string_view comment, std::string_view seq,
                                                        int32_t begin, int32_t end);

}  // namespace agatha::format
