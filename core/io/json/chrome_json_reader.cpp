#include "core/io/json/chrome_json_reader.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/io/json/chunk_parser.h"
#include "core/io/json/json_scan.h"
#include "core/io/json/kineto_ranges.h"
#include "core/io/json/parse_pool.h"
#include "core/io/memory_budget.h"
#include "core/io/memory_projection.h"
#include "core/io/text/decimal.h"
#include "core/trace/conventions.h"

namespace contend {

namespace {

// Free bytes kept after the text in the buffer: a chunk handed to a worker is framed in place
// (detail::kChunkTail); one byte is kept before the unconsumed text for the same reason.
constexpr std::size_t kPadding = detail::kChunkTail;
constexpr std::size_t kHead = detail::kChunkHead;
constexpr std::size_t kNpos = std::numeric_limits<std::size_t>::max();
std::string_view trimView(std::string_view s) {
    while (!s.empty() && json::isSpace(s.back())) s.remove_suffix(1);
    while (!s.empty() && json::isSpace(s.front())) s.remove_prefix(1);
    return s;
}

// The reader's state between its steps: go on, start over with exact chunk boundaries
// (Restart), or stop with the Failure in m_error (Error; a cancel is one of kind Cancelled).
enum class Status { Ok, Restart, Error };

using detail::Job;
using detail::ParsePool;
using detail::workerCount;

class Reader {
  public:
    Reader(ByteSource& src, const std::string& name, TraceBuilder& b, const LoadOptions& o, bool exact)
        : m_src(src), m_name(name), m_b(b), m_opt(o), m_exact(exact), m_budget(effectiveMemoryBudget(o)) {
        m_b.stats().memoryBudget = m_budget == kNoMemoryLimit ? 0 : m_budget;
    }

    Status run();
    Failure& error() { return m_error; }

  private:
    // --- buffer ---------------------------------------------------------------------------
    bool fill(std::size_t want);
    void skipWs();
    char peek() { return m_pos < m_len ? m_buf[m_pos] : '\0'; }
    std::uint64_t streamOffset(std::size_t bufIndex) const { return m_bufOffset + bufIndex; }

    // --- structure ------------------------------------------------------------------------
    Status readObjectForm();
    Status readEvents();
    // Hands the `length` buffer bytes at m_pos (whole elements) to a worker, with the buffer
    // itself, and moves m_pos `advance` bytes on (past the elements and what follows them, a
    // ',' or the ']'); merges finished chunks in order.
    Status dispatch(std::size_t length, std::size_t advance, bool findArrayEnd);
    Status drain(std::size_t keep);
    bool readTopLevelValue(std::string_view key);
    void readDistributedInfo(std::string_view text);

    Status fail(std::uint64_t offset, std::string reason);
    Status failAtBuffer(std::size_t bufIndex, std::string reason) {
        return fail(streamOffset(bufIndex), std::move(reason));
    }
    void warn(ImportProblem problem, std::uint64_t offset) { m_b.warn(problem, "byte " + std::to_string(offset)); }
    bool progress();
    Status checkMemory();
    Status checkEventGrowth(std::size_t want);
    Status failMemory(std::string reason);
    // The caller's progress callback said stop.
    Status cancel();

    ByteSource& m_src;
    const std::string& m_name;
    TraceBuilder& m_b;
    const LoadOptions& m_opt;
    bool m_exact;
    std::uint64_t m_budget;
    Failure m_error;

    std::vector<char> m_buf;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::uint64_t m_bufOffset = 0;  // stream offset of m_buf[0]
    bool m_eof = false;

    ParsePool m_pool{workerCount(), 2 * m_opt.chunkBytes + 4096};
    std::deque<std::shared_ptr<Job>> m_inFlight;
    std::uint64_t m_events = 0;
    std::array<std::uint64_t, 128> m_phaseCounts{};
    std::map<std::string, std::uint64_t> m_otherPhases;
    bool m_kinetoHints = false;
    bool m_ascendHints = false;
    bool m_objectForm = false;
    bool m_sawEvents = false;
};

bool Reader::fill(std::size_t want) {
    if (m_len - m_pos >= want || m_eof) return m_len - m_pos >= want;
    // Compact: drop consumed bytes, keeping kHead of them before the rest.
    if (m_pos > kHead) {
        const std::size_t drop = m_pos - kHead;
        std::memmove(m_buf.data() + kHead, m_buf.data() + m_pos, m_len - m_pos);
        m_bufOffset += drop;
        m_len -= drop;
        m_pos = kHead;
    }
    if (m_buf.size() < m_pos + want + kPadding) m_buf.resize(m_pos + want + kPadding);
    while (m_len - m_pos < want && !m_eof) {
        std::size_t got = m_src.read(m_buf.data() + m_len, m_pos + want - m_len);
        if (got == 0) m_eof = true;
        m_len += got;
    }
    return m_len - m_pos >= want;
}

void Reader::skipWs() {
    for (;;) {
        while (m_pos < m_len && json::isSpace(m_buf[m_pos])) ++m_pos;
        if (m_pos < m_len || m_eof) return;
        fill(64 * 1024);
    }
}

Status Reader::fail(std::uint64_t offset, std::string reason) {
    m_error.file = m_name;
    m_error.offset = static_cast<std::int64_t>(offset);
    m_error.reason = std::move(reason);
    m_error.kind = Failure::Kind::Malformed;
    // Line and column are filled in by readChromeJson, which re-reads the text up to the offset:
    // counting newlines while streaming would cost every load ~10% for the rare broken file.
    return Status::Error;
}

Status Reader::cancel() {
    m_error = Failure::cancelled(m_name);
    return Status::Error;
}

Status Reader::failMemory(std::string reason) {
    m_error.file = m_name;
    m_error.offset = -1;  // not about a place in the text: no line and column to look up
    m_error.reason = "not enough memory: " + std::move(reason);
    m_error.kind = Failure::Kind::OutOfMemory;
    return Status::Error;
}

Status Reader::checkMemory() {
    if (m_budget == kNoMemoryLimit) return Status::Ok;
    const std::uint64_t total = m_src.fileSize();
    LoadMemoryState state;
    state.modelBytes = static_cast<double>(m_b.memoryBytes());
    state.fixedBytes = readerFixedBytes(m_opt.chunkBytes, m_buf.size(), total, m_src.isGzip());
    // How much of the file the model stands for: the parse position for plain text (the
    // prefetch thread reads ahead), the compressed bytes inflated so far for gzip.
    const double done =
        m_src.isGzip() ? static_cast<double>(m_src.consumed()) : static_cast<double>(streamOffset(m_pos));
    state.fractionRead = total ? done / static_cast<double>(total) : 0.0;
    state.budgetBytes = static_cast<double>(m_budget);
    const LoadMemoryVerdict verdict = projectLoadMemory(state);
    if (verdict.fits) return Status::Ok;
    const bool budgetIsDefault = m_opt.memoryLimitBytes == 0 && !memoryLimitFromEnvironment();
    return failMemory(loadMemoryRefusal(verdict, state, m_budget, budgetIsDefault, streamOffset(m_pos)));
}

// One event bigger than a chunk grows the buffer: refuse before that passes the budget.
Status Reader::checkEventGrowth(std::size_t want) {
    if (m_budget == kNoMemoryLimit) return Status::Ok;
    if (auto refusal = eventGrowthRefusal(want, m_budget, streamOffset(m_pos))) return failMemory(std::move(*refusal));
    return Status::Ok;
}

bool Reader::progress() {
    if (!m_opt.progress) return true;
    std::uint64_t total = m_src.fileSize();
    double f = total ? static_cast<double>(m_src.consumed()) / static_cast<double>(total) : 0.0;
    return m_opt.progress(std::min(1.0, f));
}

Status Reader::run() {
    // Room for the slices up front (Kineto events are 200-600 bytes): reserving touches no
    // pages, and it saves the copies and page clearing of repeated growth.
    m_b.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m_src.sizeHint() / 200, 50'000'000)));
    fill(m_opt.chunkBytes);
    // UTF-8 byte order mark.
    if (m_len >= 3 && static_cast<unsigned char>(m_buf[0]) == 0xEF && static_cast<unsigned char>(m_buf[1]) == 0xBB &&
        static_cast<unsigned char>(m_buf[2]) == 0xBF)
        m_pos = 3;
    skipWs();
    if (m_pos >= m_len) {
        if (!m_src.error().empty()) return failAtBuffer(m_pos, m_src.error());
        return fail(0, m_len == 0 ? "the file is empty" : "the file holds only white space");
    }
    char c = peek();
    Status st;
    if (c == '[') {
        ++m_pos;
        m_sawEvents = true;
        st = readEvents();
        if (st == Status::Ok) {
            skipWs();
            if (m_pos < m_len && !m_b.stats().truncated) warn(ImportProblem::TextAfterEvents, streamOffset(m_pos));
        }
    } else if (c == '{') {
        m_objectForm = true;
        ++m_pos;
        st = readObjectForm();
        if (st == Status::Ok && !m_sawEvents)
            return fail(0, "not a trace: the JSON object has no \"traceEvents\" array");
    } else {
        // A printable character in quotes; any other byte in hex ("byte 0x89": a PNG's first).
        const auto u = static_cast<unsigned char>(c);
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(u));
        const std::string shown = std::isprint(u) ? "'" + std::string(1, c) + "'" : std::string("byte ") + hex;
        return failAtBuffer(m_pos, "not a JSON trace: it starts with " + shown + ", expected '{' or '['");
    }
    if (st != Status::Ok) return st;
    if (!m_src.error().empty()) {
        if (m_src.truncated()) {
            m_b.stats().truncated = true;
            m_b.warn(ImportProblem::GzipCutShort, m_src.error());  // say why, not only that it was cut
        } else {
            return failAtBuffer(m_len, m_src.error());
        }
    }
    // Stats and format.
    auto& stats = m_b.stats();
    stats.events = m_events;
    for (std::size_t k = 0; k < m_phaseCounts.size(); ++k)
        if (m_phaseCounts[k]) stats.phases[std::string(1, static_cast<char>(k))] += m_phaseCounts[k];
    for (auto& [k, v] : m_otherPhases) stats.phases[k] += v;
    stats.bytes = m_bufOffset + m_len;
    stats.fileBytes = m_src.fileSize();
    if (m_ascendHints)
        m_b.setFormat(kAscendFormat);
    else if (m_kinetoHints)
        m_b.setFormat(kKinetoFormat);
    else
        m_b.setFormat(kChromeFormat);
    attachProfilerRanges(m_b);  // per-kernel CUPTI metrics onto their kernels (kineto_ranges.h)
    return Status::Ok;
}

// Reads the keys of the top-level object; the traceEvents array is streamed, everything else is
// small metadata (or skipped when large, like systemTraceEvents).
Status Reader::readObjectForm() {
    for (;;) {
        skipWs();
        if (m_pos >= m_len) {
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : fail(streamOffset(m_pos), "the file ends inside the top-level object");
        }
        char c = peek();
        if (c == '}') {
            ++m_pos;
            return Status::Ok;
        }
        if (c == ',') {
            ++m_pos;
            continue;
        }
        if (c != '"')
            return failAtBuffer(m_pos, std::string("expected a key or '}' in the top-level object, found '") + c + "'");
        // Key.
        std::size_t keyEnd = 0;
        for (std::size_t want = 4096;; want *= 2) {
            keyEnd = json::scanValue(m_buf.data() + m_pos, m_len - m_pos);
            if (keyEnd || m_eof || want > m_opt.maxEventBytes) break;
            fill(want);
        }
        if (!keyEnd) {
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : failAtBuffer(m_pos, "the file ends inside a key");
        }
        std::string key(m_buf.data() + m_pos + 1, keyEnd - 2);
        m_pos += keyEnd;
        skipWs();
        if (peek() != ':') return failAtBuffer(m_pos, "expected ':' after key \"" + key + "\"");
        ++m_pos;
        skipWs();
        if ((key == "traceEvents") && peek() == '[') {
            ++m_pos;
            m_sawEvents = true;
            Status st = readEvents();
            if (st != Status::Ok) return st;
            if (m_b.stats().truncated) return Status::Ok;
            continue;
        }
        if (!readTopLevelValue(key)) {
            if (!m_error.reason.empty()) return Status::Error;
            m_b.stats().truncated = true;
            return m_sawEvents ? Status::Ok : failAtBuffer(m_pos, "the file ends inside the value of \"" + key + "\"");
        }
    }
}

// Kineto's {"backend": "nccl", "rank": 3, "world_size": 8}: the rank and world size, when they
// are non-negative integers; anything else is a warning and the trace loads without a rank.
void Reader::readDistributedInfo(std::string_view text) {
    auto field = [&](std::string_view name) -> std::optional<std::int64_t> {
        const std::string quoted = "\"" + std::string(name) + "\"";
        std::size_t at = text.find(quoted);
        if (at == std::string_view::npos) return std::nullopt;
        at += quoted.size();
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
        if (at >= text.size() || text[at] != ':') return std::nullopt;
        std::size_t end = ++at;
        while (end < text.size() && text[end] != ',' && text[end] != '}') ++end;
        return parseInt(trimView(text.substr(at, end - at)));
    };
    const auto rank = field("rank");
    const auto world = field("world_size");
    if (!rank || *rank < 0 || *rank > (1 << 30)) {
        warn(ImportProblem::DistributedInfoWithoutRank, streamOffset(m_pos));
        return;
    }
    m_b.setDistributed(static_cast<int>(*rank),
                       world && *world > 0 && *world <= (1 << 30) ? static_cast<int>(*world) : 0);
}

bool Reader::readTopLevelValue(std::string_view key) {
    std::size_t end = 0;
    for (std::size_t want = 64 * 1024;; want *= 2) {
        end = json::scanValue(m_buf.data() + m_pos, m_len - m_pos);
        if (end || m_eof) break;
        if (want > m_opt.maxEventBytes) {
            failAtBuffer(m_pos, "the value of \"" + std::string(key) + "\" is larger than the limit of " +
                                    std::to_string(m_opt.maxEventBytes >> 20) + " MB");
            return false;
        }
        fill(want);
    }
    if (!end) return false;
    std::string_view text = trimView(std::string_view(m_buf.data() + m_pos, end));
    if ((key == "schemaVersion") || (key == "deviceProperties") || (key == "distributedInfo") ||
        (key == "computeProperties") || (key == "traceName"))
        m_kinetoHints = true;
    if ((key == "baseTimeNanoseconds")) {
        m_kinetoHints = true;
        auto v = parseInt(text);
        if (!v)
            warn(ImportProblem::BaseTimeNotInteger, streamOffset(m_pos));
        else if (*v < kMinBaseTimeNs || *v > kMaxBaseTimeNs)
            warn(ImportProblem::BaseTimeOutOfRange, streamOffset(m_pos));
        else
            m_b.setBaseTime(*v);
    } else if (key == "distributedInfo") {
        readDistributedInfo(text);
    } else if ((key == "displayTimeUnit") && text.size() >= 2 && text.front() == '"') {
        m_b.setDisplayTimeUnit(std::string(text.substr(1, text.size() - 2)));
    } else if ((key == "traceEvents")) {
        warn(ImportProblem::TraceEventsNotArray, streamOffset(m_pos));
    }
    m_pos += end;
    return true;
}

Status Reader::readEvents() {
    const std::size_t chunk = std::max<std::size_t>(m_opt.chunkBytes, 4096);
    std::size_t want = chunk;
    for (;;) {
        if (!progress()) return cancel();
        fill(want);
        skipWs();
        if (peek() == ']') {  // empty array, or the end right after a boundary
            ++m_pos;
            return drain(0);
        }
        const std::size_t avail = m_len - m_pos;
        if (!m_exact && !m_eof) {
            std::size_t next = 0;
            std::size_t cut = json::findEventBoundaryBackward(m_buf.data() + m_pos, avail, &next);
            if (cut == kNpos) {
                if (avail >= m_opt.maxEventBytes)
                    return failAtBuffer(m_pos, "an event is larger than the limit of " +
                                                   std::to_string(m_opt.maxEventBytes >> 20) + " MB");
                want = avail * 2;
                if (Status st = checkEventGrowth(want); st != Status::Ok) return st;
                continue;
            }
            Status st = dispatch(cut + 1, next, true);
            if (st != Status::Ok) return st;
            want = chunk;
            continue;
        }
        // Exact: find element boundaries byte by byte.
        json::ElementScan scan = json::scanElements(m_buf.data() + m_pos, avail);
        if (scan.badStructure) {
            // Let simdjson describe the problem in the elements up to here.
            std::size_t upto = scan.elements ? scan.lastElementEnd : 0;
            if (upto) {
                Status st = dispatch(upto, upto, false);  // m_pos moves to where the problem is
                if (st == Status::Ok) st = drain(0);
                if (st != Status::Ok) return st;
                upto = 0;
            }
            Status st = drain(0);
            if (st != Status::Ok) return st;
            return failAtBuffer(m_pos + upto, "unbalanced brackets in the events array");
        }
        if (scan.arrayClosed) {
            if (scan.elements) {
                Status st = dispatch(scan.lastElementEnd, scan.closePos + 1, false);
                if (st != Status::Ok) return st;
            } else {
                m_pos += scan.closePos + 1;
            }
            return drain(0);
        }
        if (m_eof) {
            // Truncated: keep every complete event (m_pos moves past them).
            if (scan.elements) {
                Status st = dispatch(scan.lastElementEnd, scan.lastElementEnd, false);
                if (st != Status::Ok) return st;
            }
            Status st = drain(0);
            if (st != Status::Ok) return st;
            m_b.stats().truncated = true;
            m_b.warn(ImportProblem::FileTruncated,
                     "the events array is cut off after byte " + std::to_string(streamOffset(m_pos)));
            m_pos = m_len;
            return Status::Ok;
        }
        if (scan.elements == 0) {
            if (avail >= m_opt.maxEventBytes)
                return failAtBuffer(
                    m_pos, "an event is larger than the limit of " + std::to_string(m_opt.maxEventBytes >> 20) + " MB");
            want = avail * 2;
            if (Status st = checkEventGrowth(want); st != Status::Ok) return st;
            continue;
        }
        Status st = dispatch(scan.lastElementEnd, scan.lastElementEnd + 1, false);  // past the ','
        if (st != Status::Ok) return st;
        want = chunk;
    }
}

Status Reader::dispatch(std::size_t length, std::size_t advance, bool findArrayEnd) {
    auto job = std::make_shared<Job>();
    job->chunk.begin = m_pos;
    job->chunk.length = length;
    job->chunk.offset = streamOffset(m_pos);
    job->chunk.exact = m_exact;
    job->chunk.findArrayEnd = findArrayEnd;
    // The chunk takes the buffer (its text is not copied); the bytes after what is consumed go
    // to the front of another buffer, one a worker is done with when there is one. They are
    // less than an event, as the cut is at the last element boundary in the buffer.
    // The next buffer is chunk-sized even after one large event grew this one: fill() grows it
    // again when an event needs it.
    const std::size_t rest = m_pos + advance;
    const std::size_t chunkBuffer = kHead + std::max<std::size_t>(m_opt.chunkBytes, 4096) + kPadding;
    std::vector<char> next = m_pool.takeBuffer();
    const std::size_t need = std::max(chunkBuffer, kHead + (m_len - rest) + kPadding);
    if (next.size() < need) next.resize(need);
    std::memcpy(next.data() + kHead, m_buf.data() + rest, m_len - rest);
    m_bufOffset += rest - kHead;
    m_len = kHead + (m_len - rest);
    m_pos = kHead;
    job->chunk.text = std::move(m_buf);
    m_buf = std::move(next);
    m_pool.submit(job);
    m_inFlight.push_back(job);
    // Keep a few chunks in flight: enough to feed every worker, few enough to bound memory.
    return drain(workerCount() + 1);
}

Status Reader::drain(std::size_t keep) {
    while (m_inFlight.size() > keep) {
        std::shared_ptr<Job> job = m_inFlight.front();
        m_inFlight.pop_front();
        m_pool.wait(*job);
        detail::ChunkResult& result = job->result;
        if (result.status == detail::ParseStatus::Restart) return Status::Restart;
        if (result.status == detail::ParseStatus::Error) {
            m_error = result.error;
            m_error.file = m_name;
            return Status::Error;
        }
        // The events array ended inside an optimistically cut chunk (text after it looked like
        // more events): the cut cannot be trusted, read again with exact boundaries.
        if (result.arrayEnd != detail::kNoArrayEnd) return Status::Restart;
        const detail::ChunkCounts& counts = result.counts;
        m_events += counts.events;
        for (std::size_t k = 0; k < m_phaseCounts.size(); ++k) m_phaseCounts[k] += counts.phases[k];
        for (const auto& [ph, n] : counts.otherPhases) detail::countOtherPhase(m_otherPhases, ph, n);
        m_kinetoHints = m_kinetoHints || counts.kinetoHints;
        m_ascendHints = m_ascendHints || counts.ascendHints;
        m_b.absorb(std::move(result.builder));
        Status st = checkMemory();
        if (st != Status::Ok) return st;
    }
    return Status::Ok;
}

// Fills line and column of an error by reading the source again up to its offset.
void locate(const SourceFactory& open, Failure& e) {
    std::string ignored;
    auto src = open(ignored);
    if (!src) return;
    std::vector<char> buf(1 << 20);
    std::uint64_t pos = 0;
    std::int64_t line = 1;
    std::uint64_t lineStart = 0;
    const auto target = static_cast<std::uint64_t>(e.offset);
    while (pos < target) {
        std::size_t n =
            src->read(buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), target - pos)));
        if (n == 0) break;
        for (std::size_t k = 0; k < n; ++k) {
            if (buf[k] == '\n') {
                ++line;
                lineStart = pos + k + 1;
            }
        }
        pos += n;
    }
    e.line = line;
    e.column = static_cast<std::int64_t>(target - lineStart) + 1;
}

}  // namespace

std::optional<Failure> readChromeJson(const SourceFactory& open, const std::string& name, TraceBuilder& builder,
                                      const LoadOptions& options) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool exact = attempt == 1;
        std::string openError;
        auto src = open(openError);
        if (!src) {
            Failure e;
            e.file = name;
            e.reason = openError;
            e.kind = Failure::Kind::Unreadable;
            return e;
        }
        Reader reader(*src, name, builder, options, exact);
        Status st = reader.run();
        if (st == Status::Ok) {
            builder.stats().modelBytes = builder.memoryBytes();
            return std::nullopt;
        }
        if (st == Status::Error) {  // a cancel too (kind Cancelled, no place to locate)
            Failure e = reader.error();
            if (e.offset >= 0) locate(open, e);
            return e;
        }
        // Restart: the optimistic chunking hit something it could not verify; start over with a
        // fresh model and exact boundaries.
        builder = TraceBuilder();
    }
    Failure e;
    e.file = name;
    e.reason = "internal error: the exact reader asked for a restart";
    e.kind = Failure::Kind::Internal;
    return e;
}

}  // namespace contend
