// src/io/junction_bed.hpp — the annotated-intron file of --junc-bed (BED6 or BED12),
// plain or gzip, "-" for standard input, read line by line into index::Junctions
// (whose Builder holds minimap2's rules for each line: index.c, mm_idx_read_bed).
#pragma once

#include <string>

#include "../index/junctions.hpp"
#include "../index/reference.hpp"

namespace agatha::io {

// Reads `path` against `ref`'s names. Throws InputError if the file cannot be opened or
// read (LineReader's messages).
index::Junctions read_junction_bed(const std::string& path, const index::Reference& ref);

}  // namespace agatha::io
