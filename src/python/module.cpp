// src/python/module.cpp — the Python extension `agatha._agatha` (re-exported by the
// package `agatha`, src/python/agatha/__init__.py): mappy's API over MappyAligner
// (mappy_aligner.hpp), bound with pybind11.
//
// As mappy: Aligner(...) and its map() (an iterator over Alignment objects), seq(),
// seq_names, k, w, n_seq; Alignment's fields, cigar_str and __str__ (mappy's PAF-like
// line); ThreadBuffer (accepted, not needed); fastx_read(); revcomp(); verbose().
// Unlike mappy, a reference that cannot be read, or bad options, raise agatha.InputError
// or agatha.OptionError (kinds of agatha.Error, a ValueError) with `agatha align`'s messages, where mappy
// gives an Aligner that is false and maps nothing. Beyond mappy: compat=, backend=,
// isa= and map_many(), which maps many reads on several threads without the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <agatha/error.hpp>
#include <agatha/version.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../format/sam.hpp"
#include "../io/seq_reader.hpp"
#include "mappy_aligner.hpp"

namespace py = pybind11;

namespace agatha::python {
namespace {

// str or bytes, as mappy takes sequences.
std::string text_of(const py::handle& h) {
  if (py::isinstance<py::bytes>(h)) return h.cast<std::string>();
  if (py::isinstance<py::str>(h)) return h.cast<std::string>();
  throw py::type_error("a sequence must be str or bytes");
}

py::list cigar_list(const Hit& h) {
  py::list l;
  for (const uint32_t c : h.cigar) {
    py::list op;
    op.append(c >> 4);
    op.append(c & 0xf);
    l.append(op);
  }
  return l;
}

std::string cigar_str(const Hit& h) {
  std::string s;
  for (const uint32_t c : h.cigar) s += std::to_string(c >> 4) + "MIDNSHP=XB"[c & 0xf];
  return s;
}

// mappy's Alignment.__str__.
std::string hit_str(const Hit& h) {
  std::string s = std::to_string(h.q_st) + '\t' + std::to_string(h.q_en) + '\t' +
                  (h.strand > 0 ? "+" : h.strand < 0 ? "-" : "?") + '\t' + h.ctg + '\t' + std::to_string(h.ctg_len) +
                  '\t' + std::to_string(h.r_st) + '\t' + std::to_string(h.r_en) + '\t' + std::to_string(h.mlen) +
                  '\t' + std::to_string(h.blen) + '\t' + std::to_string(h.mapq) + '\t' +
                  (h.is_primary ? "tp:A:P" : "tp:A:S") + '\t' +
                  (h.trans_strand > 0 ? "ts:A:+" : h.trans_strand < 0 ? "ts:A:-" : "ts:A:.") + "\tcg:Z:" +
                  cigar_str(h);
  if (!h.cs.empty()) s += "\tcs:Z:" + h.cs;
  if (h.str_with_md && !h.ds.empty()) s += "\tds:Z:" + h.ds;
  if (h.str_with_md && !h.MD.empty()) s += "\tMD:Z:" + h.MD;
  return s;
}

py::list hit_list(std::vector<Hit>&& hits) {
  py::list l;
  for (Hit& h : hits) l.append(py::cast(std::move(h)));
  return l;
}

// fastx_read's iterator: (name, seq, qual[, comment]) of each record, qual and comment
// None when empty.
class FastxIterator {
 public:
  FastxIterator(const std::string& path, bool comment) : reader_(path), comment_(comment) {}
  py::tuple next() {
    io::SeqRecord rec;
    bool got;
    {
      py::gil_scoped_release nogil;
      got = reader_.next(rec);
    }
    if (!got) throw py::stop_iteration();
    const py::object qual = rec.qual.empty() ? py::object(py::none()) : py::object(py::str(rec.qual));
    if (!comment_) return py::make_tuple(rec.name, rec.seq, qual);
    const py::object c = rec.comment.empty() ? py::object(py::none()) : py::object(py::str(rec.comment));
    return py::make_tuple(rec.name, rec.seq, qual, c);
  }

 private:
  io::SeqReader reader_;
  bool comment_;
};

struct ThreadBuffer {};

int verbose_level = 1;  // verbose(): kept for mappy's callers; agatha's aligner prints nothing

std::optional<int> opt_int(const py::object& o) {
  if (o.is_none()) return std::nullopt;
  return o.cast<int>();
}

}  // namespace
}  // namespace agatha::python

PYBIND11_MODULE(_agatha, m) {
  using namespace agatha;
  using namespace agatha::python;
  m.doc() = "agatha: minimap2-compatible long-read alignment (mappy's API)";
  m.attr("__version__") = std::string(kVersion);

  // agatha.Error (a ValueError) and its kinds: InputError (a file), OptionError (options).
  static py::exception<Error> agatha_error(m, "Error", PyExc_ValueError);
  static py::exception<InputError> input_error(m, "InputError", agatha_error);
  static py::exception<OptionError> option_error(m, "OptionError", agatha_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    } catch (const OptionError& e) {
      PyErr_SetString(option_error.ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(agatha_error.ptr(), e.what());
    }
  });

  py::class_<Hit>(m, "Alignment")
      .def_property_readonly("ctg", [](const Hit& h) { return h.ctg; })
      .def_property_readonly("ctg_len", [](const Hit& h) { return h.ctg_len; })
      .def_property_readonly("r_st", [](const Hit& h) { return h.r_st; })
      .def_property_readonly("r_en", [](const Hit& h) { return h.r_en; })
      .def_property_readonly("strand", [](const Hit& h) { return static_cast<int>(h.strand); })
      .def_property_readonly("trans_strand", [](const Hit& h) { return static_cast<int>(h.trans_strand); })
      .def_property_readonly("blen", [](const Hit& h) { return h.blen; })
      .def_property_readonly("mlen", [](const Hit& h) { return h.mlen; })
      .def_property_readonly("NM", [](const Hit& h) { return h.NM; })
      .def_property_readonly("is_primary", [](const Hit& h) { return h.is_primary; })
      .def_property_readonly("q_st", [](const Hit& h) { return h.q_st; })
      .def_property_readonly("q_en", [](const Hit& h) { return h.q_en; })
      .def_property_readonly("mapq", [](const Hit& h) { return static_cast<int>(h.mapq); })
      .def_property_readonly("cigar", [](const Hit& h) { return cigar_list(h); })
      .def_property_readonly("read_num", [](const Hit& h) { return h.seg_id + 1; })
      .def_property_readonly("cs", [](const Hit& h) { return h.cs; })
      .def_property_readonly("ds", [](const Hit& h) { return h.ds; })
      .def_property_readonly("MD", [](const Hit& h) { return h.MD; })
      .def_property_readonly("cigar_str", [](const Hit& h) { return cigar_str(h); })
      .def("__str__", [](const Hit& h) { return hit_str(h); })
      .def("__repr__", [](const Hit& h) { return "<agatha.Alignment " + hit_str(h) + ">"; });

  // mappy's per-thread buffer; agatha's aligner needs none.
  py::class_<ThreadBuffer>(m, "ThreadBuffer").def(py::init<>());

  py::class_<MappyAligner>(m, "Aligner")
      .def(py::init([](const py::object& fn_idx_in, const py::object& preset, const py::object& k, const py::object& w,
                       const py::object& min_cnt, const py::object& min_chain_score, const py::object& min_dp_score,
                       const py::object& bw, const py::object& best_n, int n_threads, const py::object& fn_idx_out,
                       const py::object& max_frag_len, const py::object& extra_flags, const py::object& seq,
                       const py::object& scoring, const py::object& bw_long, const py::object& sc_ambi,
                       const py::object& max_chain_skip, const py::object& compat, const std::string& backend,
                       const std::string& isa) {
             AlignerOptions o;
             if (!fn_idx_in.is_none()) o.fn_idx_in = py::str(fn_idx_in).cast<std::string>();
             if (!seq.is_none()) o.seq = text_of(seq);
             if (fn_idx_in.is_none() && seq.is_none()) throw OptionError("Aligner: give fn_idx_in or seq");
             if (!preset.is_none()) o.preset = preset.cast<std::string>();
             o.k = opt_int(k), o.w = opt_int(w), o.min_cnt = opt_int(min_cnt);
             o.min_chain_score = opt_int(min_chain_score), o.min_dp_score = opt_int(min_dp_score);
             o.bw = opt_int(bw), o.best_n = opt_int(best_n), o.max_frag_len = opt_int(max_frag_len);
             o.bw_long = opt_int(bw_long), o.sc_ambi = opt_int(sc_ambi), o.max_chain_skip = opt_int(max_chain_skip);
             o.n_threads = n_threads;
             if (!fn_idx_out.is_none()) o.fn_idx_out = py::str(fn_idx_out).cast<std::string>();
             if (!extra_flags.is_none()) o.extra_flags = extra_flags.cast<uint64_t>();
             if (!scoring.is_none()) o.scoring = scoring.cast<std::vector<int>>();
             if (!compat.is_none()) o.compat = py::str(compat).cast<std::string>();
             o.backend = backend, o.isa = isa;
             py::gil_scoped_release nogil;
             return std::make_unique<MappyAligner>(o);
           }),
           py::arg("fn_idx_in") = py::none(), py::arg("preset") = py::none(), py::arg("k") = py::none(),
           py::arg("w") = py::none(), py::arg("min_cnt") = py::none(), py::arg("min_chain_score") = py::none(),
           py::arg("min_dp_score") = py::none(), py::arg("bw") = py::none(), py::arg("best_n") = py::none(),
           py::arg("n_threads") = 3, py::arg("fn_idx_out") = py::none(), py::arg("max_frag_len") = py::none(),
           py::arg("extra_flags") = py::none(), py::arg("seq") = py::none(), py::arg("scoring") = py::none(),
           py::kw_only(), py::arg("bw_long") = py::none(), py::arg("sc_ambi") = py::none(),
           py::arg("max_chain_skip") = py::none(), py::arg("compat") = py::none(), py::arg("backend") = "cpu", py::arg("isa") = "auto")
      .def("__bool__", [](const MappyAligner&) { return true; })
      .def(
          "map",
          // mappy 2.31's signature; 2.24's third positional argument, buf, is told apart
          // by its type (a ThreadBuffer, or None).
          [](const MappyAligner& a, const py::object& seq, const py::object& seq2, const py::object& name,
             const py::object& /*buf*/, bool cs, bool ds, bool md, const py::object& max_frag_len,
             const py::object& extra_flags) {
            const std::string s1 = text_of(seq);
            std::optional<std::string> s2;
            if (!seq2.is_none()) s2 = text_of(seq2);
            std::string qname;
            if (!name.is_none() && !py::isinstance<ThreadBuffer>(name)) qname = text_of(name);
            const std::optional<int> mfl = opt_int(max_frag_len);
            std::optional<uint64_t> ef;
            if (!extra_flags.is_none()) ef = extra_flags.cast<uint64_t>();
            std::vector<Hit> hits;
            {
              py::gil_scoped_release nogil;
              hits = a.map(s1, s2 ? std::optional<std::string_view>(*s2) : std::nullopt, qname, MapExtras{cs, ds, md},
                           mfl, ef);
            }
            return hit_list(std::move(hits)).attr("__iter__")();
          },
          py::arg("seq"), py::arg("seq2") = py::none(), py::arg("name") = py::none(), py::arg("buf") = py::none(),
          py::arg("cs") = false, py::arg("ds") = false, py::arg("MD") = false, py::arg("max_frag_len") = py::none(),
          py::arg("extra_flags") = py::none())
      .def(
          "map_many",
          [](const MappyAligner& a, const py::iterable& reads, int threads, bool cs, bool ds, bool md) {
            std::vector<Query> queries;
            for (const py::handle& r : reads) {
              Query q;
              if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
                const py::sequence t = py::reinterpret_borrow<py::sequence>(r);
                if (t.size() < 1 || t.size() > 2) throw OptionError("map_many: a read is a sequence or a (seq, seq2) pair");
                q.seq = text_of(t[0]);
                if (t.size() == 2 && !t[1].is_none()) q.seq2 = text_of(t[1]);
              } else {
                q.seq = text_of(r);
              }
              queries.push_back(std::move(q));
            }
            std::vector<std::vector<Hit>> all;
            {
              py::gil_scoped_release nogil;
              all = a.map_many(queries, threads, MapExtras{cs, ds, md});
            }
            py::list out;
            for (std::vector<Hit>& hits : all) out.append(hit_list(std::move(hits)));
            return out;
          },
          py::arg("reads"), py::arg("threads") = 0, py::arg("cs") = false, py::arg("ds") = false,
          py::arg("MD") = false)
      .def(
          "seq",
          [](const MappyAligner& a, const std::string& name, int64_t start, int64_t end) -> py::object {
            const std::optional<std::string> s = a.seq(name, start, end);
            if (!s) return py::none();
            return py::str(*s);
          },
          py::arg("name"), py::arg("start") = 0, py::arg("end") = 0x7fffffff)
      .def_property_readonly("seq_names", &MappyAligner::seq_names)
      .def_property_readonly("k", &MappyAligner::k)
      .def_property_readonly("w", &MappyAligner::w)
      .def_property_readonly("n_seq", &MappyAligner::n_seq)
      .def_property_readonly("backend", &MappyAligner::backend_name);

  py::class_<FastxIterator>(m, "_FastxIterator")
      .def("__iter__", [](FastxIterator& it) -> FastxIterator& { return it; })
      .def("__next__", &FastxIterator::next);
  m.def(
      "fastx_read", [](const py::object& fn, bool read_comment) {
        return std::make_unique<FastxIterator>(py::str(fn).cast<std::string>(), read_comment);
      },
      py::arg("fn"), py::arg("read_comment") = false);
  m.def("revcomp", [](const py::object& seq) { return format::reverse_complement(text_of(seq)); }, py::arg("seq"));
  m.def(
      "verbose",
      [](const py::object& v) {
        if (!v.is_none() && v.cast<int>() >= 0) verbose_level = v.cast<int>();
        return verbose_level;
      },
      py::arg("v") = py::none());
}
