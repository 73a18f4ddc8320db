#pragma once
// UTF-8 repair for text from files we did not write. Profilers copy kernel and operator names
// from wherever they come from; a Latin-1 name or a cut multi-byte sequence must not cost the
// user the whole trace. Invalid bytes are replaced one for one by '?', so every byte offset in
// a message still points at the same place in the file, and JSON structure (all ASCII) is never
// touched.
#include <cstddef>
#include <cstdint>

namespace contend {

// Replaces every byte that is not part of a well-formed UTF-8 sequence (stray continuation
// bytes, truncated sequences, overlong forms, surrogates, code points above U+10FFFF, 0xC0/0xC1/
// 0xF5..0xFF) with '?'. Returns how many bytes were replaced; *firstBad (if given) receives the
// index of the first one (untouched when none).
std::size_t repairUtf8(char* data, std::size_t size, std::size_t* firstBad = nullptr);

// True when the whole range is well-formed UTF-8 (fast path, SIMD through simdjson).
bool isValidUtf8(const char* data, std::size_t size);

}  // namespace contend
