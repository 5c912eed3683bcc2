// tests/support/errors.hpp — the message of the error a call throws, for tests that check
// what a failure says.
#pragma once

#include <agatha/error.hpp>

#include <functional>
#include <string>

namespace agatha::test {

// What f throws as an E (agatha::Error by default), or `none` when it returns; any other
// exception propagates and fails the test.
template <class E = Error>
std::string error_of(const std::function<void()>& f, const std::string& none = "") {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return none;
}

}  // namespace agatha::test
