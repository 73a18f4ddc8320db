#include "core/io/db/sqlite_reader_base.h"

#include <cmath>

#include "core/io/memory_budget.h"
#include "core/io/text/decimal.h"

namespace contend {

SqliteCol::SqliteCol(std::initializer_list<const char*> alternatives, bool required) : required(required) {
    std::size_t i = 0;
    for (const char* n : alternatives)
        if (i < names.size()) names[i++] = n;
}

std::optional<Failure> SqliteReaderBase::readSchema() {
    std::string error;
    const auto tables = m_db.tables(error);
    if (!error.empty()) return fail("cannot read the database schema: " + error);
    m_tables.insert(tables.begin(), tables.end());
    return std::nullopt;
}

Result<SqliteStatement> SqliteReaderBase::select(const char* table, std::initializer_list<SqliteCol> cols,
                                                 const std::string& tail) {
    if (!has(table)) return SqliteStatement();
    const auto have = m_db.columns(table);
    std::string sql = "SELECT ";
    bool first = true;
    for (const SqliteCol& c : cols) {
        const char* found = nullptr;
        for (const char* n : c.names)
            if (n && !found && std::find(have.begin(), have.end(), n) != have.end()) found = n;
        if (!found && c.required)
            return fail(std::string("table ") + table + ": no column '" + (c.names[0] ? c.names[0] : "") + "'");
        if (!first) sql += ", ";
        first = false;
        sql += found ? "\"" + std::string(found) + "\"" : std::string("NULL");
    }
    sql += std::string(" FROM \"") + table + "\"" + tail;
    std::string error;
    SqliteStatement st = m_db.prepare(sql, error);
    if (!st) return fail(std::string("table ") + table + ": " + error);
    return st;
}

SqliteStatement SqliteReaderBase::trySelect(const char* table, std::initializer_list<SqliteCol> cols,
                                            const std::string& tail) {
    Result<SqliteStatement> st = select(table, cols, tail);
    return st ? std::move(st).value() : SqliteStatement();
}

std::optional<Failure> SqliteReaderBase::scanDone(const char* table, const SqliteStatement& st) const {
    if (st.error().empty()) return std::nullopt;
    return fail(std::string("table ") + table + ": " + st.error() + " (a truncated or damaged file?)");
}

std::optional<Failure> SqliteReaderBase::reportProgress() {
    const double f =
        m_rowsTotal > 0 ? std::min(1.0, static_cast<double>(m_rowsDone) / static_cast<double>(m_rowsTotal)) : 0;
    if (m_opt.progress(f)) return std::nullopt;
    return Failure::cancelled(m_path);
}

std::optional<Failure> SqliteReaderBase::withinBudget(std::uint64_t rows, std::uint64_t need, const char* what) {
    m_rowsTotal = static_cast<std::int64_t>(rows);
    const std::uint64_t budget = effectiveMemoryBudget(m_opt);
    m_b.stats().memoryBudget = budget == kNoMemoryLimit ? 0 : budget;
    if (budget == kNoMemoryLimit || need <= budget) return std::nullopt;
    return fail(std::string("not enough memory: loading this ") + what + " (" + std::to_string(rows) +
                    " rows) needs about " + formatBytes(need) + " and the budget is " + formatBytes(budget) +
                    " (contend-cli --max-memory SIZE, or CONTEND_MAX_MEMORY=SIZE for the app; 0 for none)",
                Failure::Kind::OutOfMemory);
}

SqliteReaderBase::TimeCell SqliteReaderBase::timeCell(const SqliteStatement& st, int col, TimeNs& out) {
    if (st.isInteger(col)) {
        out = st.int64(col);
        return inRawTimeRange(out) ? TimeCell::Ok : TimeCell::OutOfRange;
    }
    if (st.isNull(col)) return TimeCell::Null;
    const std::string_view text = st.text(col);
    if (auto i = parseInt(text)) {
        out = *i;
    } else if (auto d = parseDouble(text); d && std::isfinite(*d)) {
        if (std::fabs(*d) >= 9e18) return TimeCell::OutOfRange;
        out = static_cast<TimeNs>(std::llround(*d));
    } else {
        return TimeCell::NotNumber;
    }
    return inRawTimeRange(out) ? TimeCell::Ok : TimeCell::OutOfRange;
}

std::optional<SqliteReaderBase::RowTimes> SqliteReaderBase::rowTimes(const SqliteStatement& st, int startCol,
                                                                     int endCol, const char* table, std::uint64_t row,
                                                                     bool endMayBeNull) {
    auto problem = [&](ImportProblem p, int col) {
        ++m_b.stats().events;  // read, as the JSON reader counts an event it drops
        m_b.warn(p, std::string("table ") + table + ", row " + std::to_string(row) + ", column " + st.columnName(col));
        return std::nullopt;
    };
    RowTimes t;
    switch (timeCell(st, startCol, t.start)) {
    case TimeCell::Ok: break;
    case TimeCell::Null: return problem(ImportProblem::MissingTs, startCol);
    case TimeCell::NotNumber: return problem(ImportProblem::TsNotNumber, startCol);
    case TimeCell::OutOfRange: return problem(ImportProblem::TsOutOfRange, startCol);
    }
    TimeNs end = 0;
    switch (timeCell(st, endCol, end)) {
    case TimeCell::Ok: break;
    case TimeCell::Null:
        if (!endMayBeNull) return problem(ImportProblem::DurNotNumber, endCol);
        t.instant = true;
        return t;
    case TimeCell::NotNumber: return problem(ImportProblem::DurNotNumber, endCol);
    case TimeCell::OutOfRange: return problem(ImportProblem::DurOutOfRange, endCol);
    }
    // Both in the raw range, so the difference cannot overflow.
    if (end < t.start) return problem(ImportProblem::NegativeDur, endCol);
    t.dur = end - t.start;
    if (t.dur > kMaxDurNs) return problem(ImportProblem::DurOutOfRange, endCol);
    return t;
}

bool SqliteReaderBase::rowIds(const SqliteStatement& st, int deviceCol, int streamCol, const char* table,
                              std::uint64_t row, std::int64_t& device, std::int64_t& stream, std::int64_t nullDevice,
                              std::int64_t nullStream) {
    auto id = [&](int col, std::int64_t ifNull, std::int64_t max, std::int64_t& out) {
        if (st.isNull(col)) {
            out = ifNull;
            return true;
        }
        std::optional<std::int64_t> v;
        if (st.isInteger(col))
            v = st.int64(col);
        else if (!st.isReal(col))
            v = parseInt(st.text(col));
        if (!v || *v < 0 || *v >= max) {
            ++m_b.stats().events;  // read, as the JSON reader counts an event it drops
            const std::string where =
                std::string("table ") + table + ", row " + std::to_string(row) + ", column " + st.columnName(col);
            if (!v)
                m_b.warn(ImportProblem::DbIdNotInteger, where);
            else
                m_b.warn(ImportProblem::DbIdOutOfRange, where + " (" + std::to_string(*v) + ")");
            return false;
        }
        out = *v;
        return true;
    };
    return id(deviceCol, nullDevice, kMaxDeviceId, device) && id(streamCol, nullStream, kMaxStreamId, stream);
}

void SqliteReaderBase::nameMissing(std::int64_t id, const SqliteStatement& st, int col, const char* table,
                                   std::uint64_t row) {
    const std::string why = !m_haveStringTable  ? std::string("no string table")
                            : m_strings.empty() ? std::string("the string table is empty")
                                                : "no id " + std::to_string(id) + " in the string table";
    m_b.warn(ImportProblem::DbNameMissing, std::string("table ") + table + ", row " + std::to_string(row) +
                                               ", column " + st.columnName(col) + " (" + why + ")");
}

std::optional<Failure> SqliteReaderBase::tooDamaged(const char* table, std::uint64_t rows,
                                                    std::uint64_t dropped) const {
    if (rows < kRefuseFromRows || 2 * dropped <= rows) return std::nullopt;
    const std::string prefix = std::string("table ") + table + ", ";
    std::string kinds;
    for (const ImportWarning& w : m_b.stats().warnings)
        if (w.example.rfind(prefix, 0) == 0)
            kinds += (kinds.empty() ? "" : "; ") + w.kind + " (first at " + w.example.substr(prefix.size()) + ")";
    return fail(prefix.substr(0, prefix.size() - 2) + ": " + std::to_string(dropped) + " of " + std::to_string(rows) +
                " rows invalid" + (kinds.empty() ? std::string() : ": " + kinds) +
                "; too damaged to trust (a damaged or hand-edited export?)");
}

}  // namespace contend
