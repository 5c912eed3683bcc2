// src/io/index_file.hpp — the minimizer index and its files: built from a FASTA/FASTQ
// file (read with SeqReader), loaded from an .agi file or from minimap2's .mmi
// (mmi_file.hpp), or written to an .agi file through OutputFile. src/index only builds
// from sequences handed to it and saves to a byte sink; the files are read and written
// here.
#pragma once

#include <agatha/options.hpp>

#include <string>

#include "../index/index.hpp"
#include "output_file.hpp"

namespace agatha::io {

// Reads the reference FASTA/FASTQ (plain, gzip or bgzip; "-" for standard input) and
// sketches it with opt.k, opt.w, opt.hpc. Throws InputError for an unreadable file, no
// sequences ("'PATH': no sequences") or duplicate names ("'PATH' record N: duplicate
// sequence name 'X'").
[[nodiscard]] index::MinimizerIndex build_index_from_file(const std::string& path, const AlignOptions& opt);

// The reference of `agatha align`, told by its first bytes, then by its name: a file
// starting with minimap2's index magic (has_mmi_magic) is loaded as a minimap2 .mmi, an
// .agi file (MinimizerIndex::is_agi_file) as agatha's index, each with its own k, w and
// HPC; any other file named *.mmi is loaded as .mmi too (and gets its error); anything
// else is read as FASTA/FASTQ and indexed with opt's k, w and HPC.
[[nodiscard]] index::MinimizerIndex load_or_build_index(const std::string& path, const AlignOptions& opt);

// Writes the .agi image of idx to out (closing it is the caller's: close() makes the
// file complete). Throws Error on a write failure.
void write_index(const index::MinimizerIndex& idx, OutputFile& out);
// Writes idx as the .agi file `path` (a regular file under a temporary name renamed when
// complete; see OutputFile).
void save_index(const index::MinimizerIndex& idx, const std::string& path);

}  // namespace agatha::io
