#include "core/io/load.h"

#include <chrono>
#include <cstdlib>

#include "core/io/json/chrome_json_reader.h"
#include "core/io/reader_entry.h"
#include "core/io/reader_table.h"
#include "core/trace/conventions.h"

namespace contend {

namespace {

LoadResult fail(Failure failure) { return failure; }

LoadResult finish(TraceBuilder& builder, const std::optional<Failure>& err, std::chrono::steady_clock::time_point t0) {
    if (err) return fail(*err);
    builder.stats().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    conventions::tagByConventions(builder);  // after the side-file joins, which may set task types
    return builder.finalize();
}

std::optional<Failure> checkCpu([[maybe_unused]] const std::string& path) {
#if defined(CONTEND_PARSER_NEEDS_AVX2) && (defined(__x86_64__) || defined(__i386__))
    if (!__builtin_cpu_supports("avx2"))
        return Failure{path,
                       -1,
                       -1,
                       -1,
                       "this build of Contend needs a CPU with AVX2 (x86-64-v3) to read JSON",
                       Failure::Kind::Unsupported};
#endif
    return std::nullopt;
}

// Format-blind: the reader table (readerTable(), core/io/reader_table.h) says which reader takes the path.
LoadResult loadTraceImpl(const std::string& path, const LoadOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto e = checkCpu(path)) return fail(*e);
    TraceBuilder builder;
    const Probe probe = probePath(path);
    auto err = readProbe(probe, builder, options);
    return finish(builder, err, t0);
}

LoadResult loadTraceFromMemoryImpl(std::string_view json, const std::string& name, const LoadOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (auto e = checkCpu(name)) return fail(*e);
    TraceBuilder builder;
    auto err = readJsonMemory(json, name, builder, options);
    return finish(builder, err, t0);
}

}  // namespace

namespace {
// The readers report bad input as Failures; what is left to catch here is running out of
// memory (a failed allocation where the budget's estimate fell short) and bugs: either way the
// caller gets a message naming the file, not a terminated process.
template <typename F>
LoadResult guarded(const std::string& name, F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return fail(Failure{name, -1, -1, -1,
                            "out of memory while loading (the trace needs more memory than this machine has free)",
                            Failure::Kind::OutOfMemory});
    } catch (const std::exception& e) {
        return fail(Failure{name, -1, -1, -1, std::string("internal error while loading: ") + e.what(),
                            Failure::Kind::Internal});
    }
}
}  // namespace

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    return guarded(path, [&] { return loadTraceImpl(path, options); });
}

LoadResult loadTraceFromMemory(std::string_view json, const std::string& name, const LoadOptions& options) {
    return guarded(name, [&] { return loadTraceFromMemoryImpl(json, name, options); });
}

}  // namespace contend
