#include "index_file.hpp"

#include <agatha/error.hpp>

#include <utility>

namespace agatha::io {

index::MinimizerIndex build_index_from_file(const std::string& path, const AlignOptions& opt) {
  SeqReader reader(path);
  index::MinimizerIndex::Builder b(opt, "'" + path + "'");
  SeqRecord rec;
  while (reader.next(rec)) b.add(rec.name, rec.seq, reader.records_read());
  return b.finish();
}

index::MinimizerIndex load_or_build_index(const std::string& path, const AlignOptions& opt) {
  if (has_mmi_magic(path)) return load_mmi(path);
  if (index::MinimizerIndex::is_agi_file(path)) return index::MinimizerIndex::load(path);
  if (path.ends_with(".mmi")) return load_mmi(path);
  return build_index_from_file(path, opt);
}

IndexParts::IndexParts(const std::string& path, const AlignOptions& opt, bool sequences_only)
    : path_(path),
      opt_(opt),
      kind_(sequences_only                             ? Kind::kSequences
            : has_mmi_magic(path)                      ? Kind::kMmi
            : index::MinimizerIndex::is_agi_file(path) ? Kind::kAgi
            : path.ends_with(".mmi")                   ? Kind::kMmi
                                                       : Kind::kSequences),
      cut_(opt.part_bases) {
  if (kind_ == Kind::kMmi) mmi_ = std::make_unique<MmiParts>(path);
  if (kind_ == Kind::kSequences) reader_ = std::make_unique<SeqReader>(path);
}

void IndexParts::read_ahead() {
  if (!ahead_) ahead_.emplace();
  if (!reader_->next(*ahead_)) {
    ahead_.reset();
    return;
  }
  ahead_no_ = reader_->records_read();
  ahead_starts_part_ = cut_.add(ahead_->seq.size());
}

index::MinimizerIndex IndexParts::next_from_sequences(util::Progress* progress) {
  const std::string source = "'" + path_ + "'";
  index::MinimizerIndex::Builder b(opt_, source);
  do {
    if (!names_.insert(ahead_->name).second)
      throw InputError(source + " record " + std::to_string(ahead_no_) + ": duplicate sequence name '" + ahead_->name +
                       "'");
    b.add(ahead_->name, ahead_->seq, ahead_no_);
    if (progress) progress->add(1, ahead_->seq.size());
    read_ahead();
  } while (ahead_ && !ahead_starts_part_);
  if (progress) progress->set_stage(kBuilding);
  return b.finish();
}

std::optional<index::MinimizerIndex> IndexParts::next(util::Progress* progress) {
  std::optional<index::MinimizerIndex> part;
  switch (kind_) {
    case Kind::kSequences:
      if (parts_ == 0) read_ahead();
      if (ahead_)
        part.emplace(next_from_sequences(progress));
      else if (parts_ == 0)
        part.emplace(index::MinimizerIndex::Builder(opt_, "'" + path_ + "'").finish());  // "no sequences"
      break;
    case Kind::kAgi:
      if (parts_ == 0) part.emplace(index::MinimizerIndex::load(path_));
      break;
    case Kind::kMmi:
      part = mmi_->next();
      if (part) {  // names unique across the parts, as a FASTA's are
        const index::Reference& ref = part->reference();
        for (uint32_t i = 0; i < ref.size(); ++i)
          if (!names_.insert(ref.seq(i).name).second)
            mmi_->fail("sequence '" + ref.seq(i).name + "' of part " + std::to_string(parts_ + 1) +
                       " is named as one of an earlier part");
      }
      break;
  }
  if (part) {
    first_rid_ = n_seqs_;
    n_seqs_ += static_cast<uint32_t>(part->reference().size());
    ++parts_;
  }
  return part;
}

bool IndexParts::at_end() {
  switch (kind_) {
    case Kind::kSequences: return !ahead_;
    case Kind::kAgi: return parts_ > 0;
    case Kind::kMmi: return mmi_->at_end();
  }
  return true;
}

void write_index(const index::MinimizerIndex& idx, OutputFile& out) {
  idx.save([&out](std::span<const uint8_t> bytes) { out.write(bytes); });
}

void save_index(const index::MinimizerIndex& idx, const std::string& path) {
  OutputFile out(path);
  write_index(idx, out);
  out.close();
}

}  // namespace agatha::io
