#include "python/src/table.h"

#include <memory>
#include <stdexcept>
#include <utility>

namespace contend::py {

namespace pyb = pybind11;

namespace {

// A numpy array over `v`'s buffer, owning the vector (freed when the array is).
template <class T>
pyb::array_t<T> arrayOf(std::vector<T>&& v) {
    auto* held = new std::vector<T>(std::move(v));
    pyb::capsule owner(held, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return pyb::array_t<T>(static_cast<pyb::ssize_t>(held->size()), held->data(), owner);
}

}  // namespace

Table::Column& Table::column(const char* name, Kind kind) {
    // Rows set their columns in the same order, so the next column is almost always the one.
    if (m_next < m_columns.size() && m_columns[m_next].name == name) return m_columns[m_next++];
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].name == name) {
            m_next = i + 1;
            return m_columns[i];
        }
    Column c;
    c.name = name;
    c.kind = kind;
    m_columns.push_back(std::move(c));
    m_next = m_columns.size();
    return m_columns.back();
}

void Table::text(const char* name, std::string_view v) {
    Column& c = column(name, Kind::Text);
    auto [it, added] = c.index.try_emplace(std::string(v), static_cast<std::int32_t>(c.values.size()));
    if (added) c.values.emplace_back(v);
    c.codes.push_back(it->second);
}

void Table::clearRows() {
    for (Column& c : m_columns) {
        c.ints.clear();
        c.floats.clear();
        c.bools.clear();
        c.codes.clear();
        c.values.clear();
        c.index.clear();
    }
}

pyb::list Table::release() {
    pyb::list out;
    for (Column& c : m_columns) {
        switch (c.kind) {
        case Kind::Int: out.append(pyb::make_tuple(c.name, "int", arrayOf(std::move(c.ints)))); break;
        case Kind::OptionalInt: out.append(pyb::make_tuple(c.name, "optional_int", arrayOf(std::move(c.ints)))); break;
        case Kind::Float: out.append(pyb::make_tuple(c.name, "float", arrayOf(std::move(c.floats)))); break;
        case Kind::Bool: out.append(pyb::make_tuple(c.name, "bool", arrayOf(std::move(c.bools)))); break;
        case Kind::Text: {
            pyb::list values;
            for (const std::string& s : c.values)
                // Names come from files we did not write: bytes that are not UTF-8 are replaced,
                // as the JSON writer does.
                values.append(pyb::reinterpret_steal<pyb::str>(
                    PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace")));
            out.append(pyb::make_tuple(c.name, "text", arrayOf(std::move(c.codes)), values));
            break;
        }
        }
    }
    m_columns.clear();
    return out;
}

}  // namespace contend::py
