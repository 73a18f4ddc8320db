#pragma once
// A table built column by column in C++ and handed to Python as numpy arrays without a copy
// (each column's vector is moved into the array's owner), for pandas to wrap as a DataFrame.
// Text columns are dictionary-encoded here (int32 codes + the distinct values), so a million
// rows of the same kernel name cost four bytes each and become a pandas Categorical.
#include <cstdint>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace contend::py {

class Table {
  public:
    // Columns are added in the order they are first named; every row must set each column once.
    void integer(const char* name, std::int64_t v) { column(name, Kind::Int).ints.push_back(v); }
    // An integer where a negative value means "not known" (the report's -1 for a what-if that did
    // not run, JSON null): a pandas nullable Int64 column.
    void optionalInteger(const char* name, std::int64_t v) { column(name, Kind::OptionalInt).ints.push_back(v); }
    void real(const char* name, double v) { column(name, Kind::Float).floats.push_back(v); }
    void boolean(const char* name, bool v) { column(name, Kind::Bool).bools.push_back(v ? 1 : 0); }
    void text(const char* name, std::string_view v);

    // {"columns": [(name, kind, data...)...]} as Python values: kind "int", "optional_int",
    // "float", "bool" with one numpy array; "text" with int32 codes and a list of the values.
    pybind11::list release();
    // Drops the rows, keeping the columns (a table with no rows still names its columns: fill
    // one default row, then clear it).
    void clearRows();

  private:
    enum class Kind : std::uint8_t { Int, OptionalInt, Float, Bool, Text };
    struct Column {
        std::string name;
        Kind kind = Kind::Int;
        std::vector<std::int64_t> ints;
        std::vector<double> floats;
        std::vector<std::uint8_t> bools;
        std::vector<std::int32_t> codes;
        std::vector<std::string> values;
        std::unordered_map<std::string, std::int32_t> index;
    };
    Column& column(const char* name, Kind kind);

    std::vector<Column> m_columns;
    // The column of the last name looked up, so a row of N columns costs N pointer compares.
    std::size_t m_next = 0;
};

}  // namespace contend::py
