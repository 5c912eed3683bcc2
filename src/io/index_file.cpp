#include "index_file.hpp"

#include "mmi_file.hpp"
#include "seq_reader.hpp"

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

void write_index(const index::MinimizerIndex& idx, OutputFile& out) {
  idx.save([&out](std::span<const uint8_t> bytes) { out.write(bytes); });
}

void save_index(const index::MinimizerIndex& idx, const std::string& path) {
  OutputFile out(path);
  write_index(idx, out);
  out.close();
}

}  // namespace agatha::io
