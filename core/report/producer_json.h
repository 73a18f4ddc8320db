#pragma once
// The "producer" member of every document Contend writes (report, comparison, trend, cluster
// report): {"name": "contend", "version": "0.7.0", "commit": "1a2b3c4d5e6f"}, the build that wrote
// it (docs/report-schema.md). Added to the contracts without a version bump: older readers ignore
// it, and documents written before it read as not saying.
#include <nlohmann/json.hpp>

#include "core/common/version.h"

namespace contend {

// This build's producer, as written.
nlohmann::json producerJson();

// The producer a document records; an empty Producer (known() false) when it has none (written
// before 0.7.0) or it is not an object whose name, version and commit are strings: it says who
// wrote the file, nothing is read differently because of it, so a bad one is not an error.
Producer producerFromJson(const nlohmann::json& document);

}  // namespace contend
