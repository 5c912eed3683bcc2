// agatha/version.hpp — the program version.
#pragma once

#include <string_view>

namespace agatha {
inline constexpr std::string_view kVersion = "0.1.0";
}  // namespace agatha
