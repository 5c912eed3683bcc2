// minimap2 2.24's write_tags (format.c). See tags.hpp.
#include "tags.hpp"

#include <cstdio>

#include "text_put.hpp"

namespace agatha::format {

void append_divergence(std::string& out, double x) {
  if (x == 0.0) {
    out += '0';
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", x);
  out += buf;
}

void append_region_tags(std::string& out, const RegionTags& t) {
  if (t.aligned) put(out, "\tNM:i:", t.nm, "\tms:i:", t.ms, "\tAS:i:", t.as, "\tnn:i:", t.nn);
  if (t.ts) put(out, "\tts:A:", t.ts);
  put(out, "\ttp:A:", t.tp, "\tcm:i:", t.cm, "\ts1:i:", t.s1);
  if (t.s2) put(out, "\ts2:i:", *t.s2);
  if (t.aligned) {
    out += "\tde:f:";
    append_divergence(out, t.de);
  } else if (t.dv >= 0.0f && t.dv <= 1.0f) {
    out += "\tdv:f:";
    append_divergence(out, t.dv);
  }
  if (t.zd) put(out, "\tzd:i:", t.zd);
}

}  // namespace agatha::format
