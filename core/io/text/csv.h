#pragma once
// RFC-4180 CSV for the side files profilers write next to their traces (Ascend kernel_details.csv,
// op_summary_*.csv, l2_cache.csv, operator_details.csv, ...). Handles what real files contain:
// quoted cells with doubled quotes ("""232138240""" -> "232138240"), line breaks inside quoted
// cells (operator_details.csv "Call Stack"), CRLF or LF line ends, a UTF-8 byte order mark, and
// spaces/tabs around cells (Ascend ends every timestamp with a tab: "1736405443881410.320\t").
//
// The whole file is read into one buffer and unescaped in place; cells are views into it, so a
// 100k-row file costs one allocation for the text and one small record per cell.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/load_options.h"

namespace contend {

class CsvTable {
  public:
    // Data rows, not counting the header row.
    std::size_t rows() const { return m_rowBegin.empty() ? 0 : m_rowBegin.size() - 1; }
    std::size_t columns() const { return m_header.size(); }
    const std::vector<std::string>& header() const { return m_header; }
    // Index of the header cell named `name`: exact match first, then ASCII case-insensitive
    // ("Stream ID" in kernel_details.csv, "Stream Id" in l2_cache.csv). -1 when absent.
    int column(std::string_view name) const;
    // First of several alternative names that is present; -1 when none is.
    int column(std::initializer_list<std::string_view> names) const;

    // The unescaped text of a cell, without surrounding spaces/tabs (kept inside quotes).
    // Empty for a column this row does not have (short rows are allowed; see width()).
    std::string_view cell(std::size_t row, int column) const;
    // Cells in this row as written (may differ from columns() in a broken row).
    std::size_t width(std::size_t row) const { return m_rowBegin[row + 1] - m_rowBegin[row]; }
    // 1-based line of the file where the row starts (the header is line 1 unless blank lines
    // come first). Rows with multi-line cells make this differ from row + 2.
    std::int64_t line(std::size_t row) const { return m_rowLine[row]; }

    const std::string& path() const { return m_path; }
    // The file name alone, for messages: "kernel_details.csv".
    std::string fileName() const;

    // "N/A", "NA", "-" and empty cells: the profilers' ways of saying "no value".
    static bool isMissing(std::string_view cell);

    // Bytes that were not valid UTF-8 and were replaced by '?' (0 for a clean file), and the
    // offset of the first one.
    std::size_t invalidUtf8Bytes() const { return m_invalidUtf8; }
    std::size_t firstInvalidUtf8() const { return m_firstInvalidUtf8; }

  private:
    friend std::optional<Failure> parseCsv(std::string text, const std::string& name, CsvTable& out);
    struct Cell {
        std::uint32_t offset;
        std::uint32_t size;
    };
    std::string m_path;
    std::string m_text;  // the file, unescaped in place
    std::vector<std::string> m_header;
    std::vector<Cell> m_cells;              // data cells, row after row
    std::vector<std::uint32_t> m_rowBegin;  // index into m_cells per row, plus one past the end
    std::vector<std::int64_t> m_rowLine;
    std::size_t m_invalidUtf8 = 0;
    std::size_t m_firstInvalidUtf8 = 0;
};

// Reads a CSV file. An unreadable file or a broken file (a quote never closed, text after a
// closing quote) is a Failure naming the file, and for a broken file the line and column.
std::optional<Failure> readCsv(const std::string& path, CsvTable& out);

// Parses CSV text already in memory; `name` stands for the file in messages.
std::optional<Failure> parseCsv(std::string text, const std::string& name, CsvTable& out);

}  // namespace contend
