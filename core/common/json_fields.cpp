#include "core/common/json_fields.h"

namespace contend::jsonfields {

const json& need(const json& j, const char* key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) throw JsonFieldError{where + ": missing \"" + key + "\""};
    return j[key];
}

const json& needArray(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (!v.is_array()) throw JsonFieldError{where + ": \"" + key + "\" is not an array"};
    return v;
}

void throwWrongType(const char* key, const std::string& where) {
    throw JsonFieldError{where + ": \"" + key + "\" has the wrong type or is out of range"};
}

double getNumber(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw JsonFieldError{where + ": \"" + key + "\" is not a number"};
    return v.get<double>();
}

bool getBool(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (!v.is_boolean()) throw JsonFieldError{where + ": \"" + key + "\" is not true or false"};
    return v.get<bool>();
}

std::string getString(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (!v.is_string()) throw JsonFieldError{where + ": \"" + key + "\" is not a string"};
    return v.get<std::string>();
}

}  // namespace contend::jsonfields
