#pragma once
// What kind of file a Trace was read from, declared only: the values, their names (the ones
// reports and `contend-cli info` print) and the readers that make them are format knowledge and
// live in core/io/conventions.h. core/trace stores the value (TraceFormat{} is the first,
// Chrome) and never looks at it.
#include <cstdint>

namespace contend {

enum class TraceFormat : std::uint8_t;

}  // namespace contend
