#include "core/io/text/csv.h"

#include <limits>
#include <memory>

#include "core/io/byte_source.h"
#include "core/io/text/utf8.h"

namespace contend {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

}  // namespace

int CsvTable::column(std::string_view name) const {
    for (std::size_t i = 0; i < m_header.size(); ++i)
        if (m_header[i] == name) return static_cast<int>(i);
    for (std::size_t i = 0; i < m_header.size(); ++i)
        if (equalsNoCase(m_header[i], name)) return static_cast<int>(i);
    return -1;
}

int CsvTable::column(std::initializer_list<std::string_view> names) const {
    for (std::string_view n : names)
        if (int c = column(n); c >= 0) return c;
    return -1;
}

std::string_view CsvTable::cell(std::size_t row, int column) const {
    if (column < 0 || row >= rows()) return {};
    const std::uint32_t first = m_rowBegin[row];
    if (static_cast<std::uint32_t>(column) >= m_rowBegin[row + 1] - first) return {};
    const Cell& c = m_cells[first + static_cast<std::uint32_t>(column)];
    return std::string_view(m_text.data() + c.offset, c.size);
}

std::string CsvTable::fileName() const {
    auto slash = m_path.find_last_of("/\\");
    return slash == std::string::npos ? m_path : m_path.substr(slash + 1);
}

bool CsvTable::isMissing(std::string_view cell) {
    return cell.empty() || cell == "N/A" || cell == "NA" || cell == "n/a" || cell == "-";
}

std::optional<Failure> parseCsv(std::string text, const std::string& name, CsvTable& out) {
    out = CsvTable();
    out.m_path = name;
    if (text.size() >= std::numeric_limits<std::uint32_t>::max())
        return Failure{name, -1, -1, -1, "the CSV file is larger than 4 GiB", Failure::Kind::Unreadable};
    out.m_text = std::move(text);
    char* const s = out.m_text.data();
    const std::size_t n = out.m_text.size();
    // Names copied from elsewhere may not be UTF-8: keep the row, replace the bytes (one for one,
    // so offsets in messages stay true to the file).
    if (!isValidUtf8(s, n)) out.m_invalidUtf8 = repairUtf8(s, n, &out.m_firstInvalidUtf8);

    std::size_t pos = 0;
    if (n >= 3 && static_cast<unsigned char>(s[0]) == 0xEF && static_cast<unsigned char>(s[1]) == 0xBB &&
        static_cast<unsigned char>(s[2]) == 0xBF)
        pos = 3;
    std::int64_t line = 1;
    std::size_t lineStart = 0;  // offset where the current physical line begins
    auto error = [&](std::size_t at, std::int64_t atLine, std::size_t atLineStart, std::string reason) {
        return Failure{name,
                       static_cast<std::int64_t>(at),
                       atLine,
                       static_cast<std::int64_t>(at - atLineStart) + 1,
                       std::move(reason),
                       Failure::Kind::Malformed};
    };

    // Rows go into m_cells; the first non-blank row is the header and is moved out at the end.
    auto& cells = out.m_cells;
    auto& rowBegin = out.m_rowBegin;
    auto& rowLine = out.m_rowLine;
    cells.reserve(n / 8);
    while (pos < n) {
        const auto rowFirst = static_cast<std::uint32_t>(cells.size());
        const std::int64_t rowStartLine = line;
        bool quotedAny = false;
        for (;;) {  // one cell per turn
            while (pos < n && isBlank(s[pos])) ++pos;
            std::size_t begin = pos;
            std::size_t end = pos;
            if (pos < n && s[pos] == '"') {
                // Quoted: unescape in place; the text only ever shrinks, so writes trail reads.
                quotedAny = true;
                const std::size_t quoteAt = pos;
                const std::int64_t quoteLine = line;
                const std::size_t quoteLineStart = lineStart;
                std::size_t w = pos;
                begin = w;
                ++pos;
                for (;;) {
                    if (pos >= n)
                        return error(quoteAt, quoteLine, quoteLineStart,
                                     "a quoted cell is not closed before the end of the file");
                    const char c = s[pos];
                    if (c == '"') {
                        if (pos + 1 < n && s[pos + 1] == '"') {
                            s[w++] = '"';
                            pos += 2;
                            continue;
                        }
                        ++pos;
                        break;
                    }
                    if (c == '\n') {
                        ++line;
                        lineStart = pos + 1;
                    }
                    s[w++] = c;
                    ++pos;
                }
                end = w;
                while (pos < n && isBlank(s[pos])) ++pos;
                if (pos < n && s[pos] != ',' && s[pos] != '\r' && s[pos] != '\n')
                    return error(pos, line, lineStart,
                                 std::string("unexpected '") + s[pos] + "' after the closing quote of a cell");
            } else {
                while (pos < n && s[pos] != ',' && s[pos] != '\r' && s[pos] != '\n') ++pos;
                end = pos;
                while (end > begin && isBlank(s[end - 1])) --end;
            }
            cells.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end - begin)});
            if (pos < n && s[pos] == ',') {
                ++pos;
                continue;
            }
            // End of the row: CRLF, LF, a lone CR, or the end of the file.
            if (pos < n && s[pos] == '\r') ++pos;
            if (pos < n && s[pos] == '\n') ++pos;
            if (pos > lineStart && (s[pos - 1] == '\n' || s[pos - 1] == '\r')) {
                ++line;
                lineStart = pos;
            }
            break;
        }
        // A blank line is one empty unquoted cell: not a row.
        if (cells.size() == rowFirst + 1u && cells.back().size == 0 && !quotedAny) {
            cells.pop_back();
            continue;
        }
        rowBegin.push_back(rowFirst);
        rowLine.push_back(rowStartLine);
    }
    rowBegin.push_back(static_cast<std::uint32_t>(cells.size()));
    if (rowLine.empty()) {  // empty file (or only blank lines): no columns, no rows
        rowBegin.clear();
        return std::nullopt;
    }
    // Header out, data rows renumbered.
    const std::uint32_t headerWidth = rowBegin[1];
    out.m_header.reserve(headerWidth);
    for (std::uint32_t k = 0; k < headerWidth; ++k)
        out.m_header.emplace_back(out.m_text.data() + cells[k].offset, cells[k].size);
    cells.erase(cells.begin(), cells.begin() + headerWidth);
    rowBegin.erase(rowBegin.begin());
    for (auto& b : rowBegin) b -= headerWidth;
    rowLine.erase(rowLine.begin());
    return std::nullopt;
}

std::optional<Failure> readCsv(const std::string& path, CsvTable& out) {
    std::string why;
    std::unique_ptr<ByteSource> src = openByteSource(path, why);
    if (!src) return Failure{path, -1, -1, -1, "cannot read the CSV file: " + why, Failure::Kind::Unreadable};
    std::string text;
    text.resize(static_cast<std::size_t>(src->sizeHint()) + 1);
    std::size_t used = 0;
    for (;;) {
        if (used == text.size()) text.resize(text.size() * 2 + 4096);
        std::size_t got = src->read(text.data() + used, text.size() - used);
        if (got == 0) break;
        used += got;
    }
    if (!src->error().empty())
        return Failure{path, -1, -1, -1, "cannot read the CSV file: " + src->error(), Failure::Kind::Unreadable};
    text.resize(used);
    return parseCsv(std::move(text), path, out);
}

}  // namespace contend
