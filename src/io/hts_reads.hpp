// src/io/hts_reads.hpp — reads from SAM, BAM or CRAM (the unaligned BAM that basecallers
// write, or aligned records), as `samtools fastq -T '*'` turns them into FASTQ, so that
// `agatha align ref reads.bam` gives what `samtools fastq -T '*' reads.bam | minimap2`
// gives:
//   - records with FLAG 0x100 or 0x800 (secondary, supplementary) are not reads of their
//     own and are passed over; every other record is one read;
//   - the name is QNAME, with `/1` or `/2` appended when FLAG has 0x1 and exactly one of
//     0x40 (first segment) and 0x80 (last segment);
//   - SEQ and QUAL as the read was sequenced: reverse-complemented and reversed when
//     FLAG has 0x10;
//   - the comment (what -y copies) is every tag of the record as SAM text, in the
//     record's order, separated by tabs (htslib's sam_format_aux1 writes each), so MM/ML
//     base modifications, ONT's qs/ch, RG and the rest reach the output unchanged.
// Two choices of this reader's own, where `samtools fastq` (1.16) does what no aligner
// would: a record without QUAL (`*`) is read as a FASTA record (QUAL `*` in the output;
// samtools writes 'B' for every base), and a record without SEQ is read as an empty read
// (reported unmapped; samtools drops it).
//
// Errors (InputError) name the file and the record (its number among the file's records,
// and the last name read); for SAM text, the line.
//
// Threading: one reader per thread; not copyable.
#pragma once

#include <cstdint>
#include <string>

#include "hts_handles.hpp"
#include "seq_reader.hpp"

struct hFILE;

namespace agatha::io {

class HtsReads {
 public:
  // Reads `file` (opened by BgzfInput::open_local; its format SAM, BAM or CRAM) and takes
  // it over. Throws InputError if its header cannot be read.
  HtsReads(hFILE* file, const std::string& path);
  HtsReads(const HtsReads&) = delete;
  HtsReads& operator=(const HtsReads&) = delete;

  // The next read; false at the end of the input. Throws InputError on a truncated or
  // corrupt record.
  [[nodiscard]] bool next(SeqRecord& rec);

  uint64_t records_read() const { return n_records_; }

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  HtsFilePtr fp_;
  SamHeaderPtr hdr_;
  BamRecordPtr b_;
  KString tag_text_;
  uint64_t n_records_ = 0;  // records of the file read, skipped ones included
  std::string last_name_;
};

// Appends the record's tags to `out` as SAM text (TAG:TYPE:VALUE), separated by tabs.
// False if a tag is malformed.
[[nodiscard]] bool append_sam_tags(const bam1_t* b, std::string& out, kstring_t* scratch);

}  // namespace agatha::io
