#pragma once
// Finding operators by name, for Ctrl+F: every slice whose name contains the text (case
// insensitive) or matches a regular expression, in time order. Each distinct name is tested
// once (names are interned), then one pass over the slices collects the matches.
#include <vector>

#include <QString>

#include "core/trace/trace.h"

namespace contend::widgets {

struct SliceSearch {
    std::vector<std::uint32_t> slices;  // matches, by start time (then track)
    QString error;                      // an invalid regular expression, in words; empty if none
};

// An empty pattern finds nothing.
SliceSearch searchSlices(const Trace& trace, const QString& pattern, bool regex);

}  // namespace contend::widgets
