#pragma once
// A small, fast JSON text builder for the simulator's output: appends into one buffer and hands
// it to an OutputSink in ~1 MiB chunks, so a 1M-event trace never sits in memory. Numbers are
// printed with integer arithmetic only (no printf, no locale, no float formatting), so the same
// simulation gives the same bytes on every platform.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/output_sink.h"

namespace contend::sim {

class JsonText {
  public:
    explicit JsonText(OutputSink* sink = nullptr, std::size_t chunk = 1u << 20);
    ~JsonText() = default;

    JsonText& raw(std::string_view s) {
        m_buf.append(s);
        return *this;
    }
    JsonText& ch(char c) {
        m_buf.push_back(c);
        return *this;
    }
    JsonText& integer(std::int64_t v);
    // A quoted, escaped string.
    JsonText& string(std::string_view s);
    // ns as microseconds with exactly three decimals: 1234567 -> "1234.567".
    JsonText& micros(std::int64_t ns) { return fixed(ns, 3); }
    // value / 10^decimals with exactly `decimals` digits after the point: (735, 1) -> "73.5".
    JsonText& fixed(std::int64_t value, int decimals);
    // num/den rounded half away from zero to `decimals` digits, integer math only.
    JsonText& ratio(std::int64_t num, std::int64_t den, int decimals);
    JsonText& boolean(bool b) { return raw(b ? "true" : "false"); }

    // Hands the buffer to the sink once it holds a chunk; call after each complete event.
    bool maybeFlush() { return m_buf.size() < m_chunk || flush(); }
    bool flush();

    const std::string& text() const { return m_buf; }  // unflushed text (whole text sinkless)
    std::uint64_t bytes() const { return m_flushed + m_buf.size(); }

  private:
    OutputSink* m_sink;
    std::size_t m_chunk;
    std::string m_buf;
    std::uint64_t m_flushed = 0;
};

}  // namespace contend::sim
