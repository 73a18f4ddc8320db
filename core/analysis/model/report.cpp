#include "core/analysis/model/report.h"

namespace contend {

namespace {
// Indexed by Resource; the JSON contract uses these names.
constexpr const char* kResourceNames[kResourceCount] = {"bandwidth", "compute", "cache",   "issue", "sync",
                                                        "lock",      "queue",   "unknown", "none"};
}  // namespace

bool isPartialInputNote(std::string_view kind) { return kind == kTruncatedInputNote || kind == kDamagedInputNote; }

bool isStrictNote(std::string_view kind) { return isPartialInputNote(kind) || kind == kStreamOverlapNote; }

const ReportNote* partialInputNote(const std::vector<ReportNote>& notes) {
    for (const ReportNote& n : notes)
        if (isPartialInputNote(n.kind)) return &n;
    return nullptr;
}

const char* resourceName(Resource r) {
    const auto i = static_cast<std::size_t>(r);
    return i < kResourceCount ? kResourceNames[i] : "unknown";
}

bool resourceFromName(std::string_view s, Resource& out) {
    for (std::size_t i = 0; i < kResourceCount; ++i) {
        if (s == kResourceNames[i]) {
            out = static_cast<Resource>(i);
            return true;
        }
    }
    return false;
}

const char* provenanceName(Provenance p) {
    switch (p) {
    case Provenance::Measured: return "measured";
    case Provenance::Estimated: return "estimated";
    case Provenance::Unknown: return "unknown";
    }
    return "unknown";
}

bool provenanceFromName(std::string_view s, Provenance& out) {
    for (Provenance p : {Provenance::Measured, Provenance::Estimated, Provenance::Unknown}) {
        if (s == provenanceName(p)) {
            out = p;
            return true;
        }
    }
    return false;
}

}  // namespace contend
