// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/doc_reader.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/yamlio/names.h"

namespace drasim::yamlio {

namespace {

/// A bound as the messages print it: integers without a fraction, doubles shortest.
std::string boundText(double v)
{
    if (v == std::trunc(v) && std::fabs(v) < 1e15)
        return std::to_string(int64_t(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// "must be greater than or equal to 0", "must be less than or equal to 10", "must be between 1 and 4".
std::string rangeText(bool hasMin, const std::string& min, bool hasMax, const std::string& max)
{
    if (hasMin && hasMax)
        return "must be between " + min + " and " + max;
    if (hasMin)
        return "must be greater than or equal to " + min;
    return "must be less than or equal to " + max;
}

} // namespace

std::string joinPath(const std::string& base, std::string_view key)
{
    return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string indexPath(const std::string& base, size_t i)
{
    return base + "[" + std::to_string(i) + "]";
}

DocReader::DocReader(Diagnostics& diags, std::string kind, std::string name)
    : m_diags(diags)
    , m_kind(std::move(kind))
    , m_name(std::move(name))
{ }

void DocReader::error(const SourcePos& at, const std::string& path, const std::string& message)
{
    m_diags.error(at, m_kind, m_name, path, message);
    ++m_errors;
}

void DocReader::warning(const SourcePos& at, const std::string& path, const std::string& message)
{
    m_diags.warning(at, m_kind, m_name, path, message);
}

void DocReader::invalid(
    const YamlNode& at, const std::string& path, std::string_view value, const std::string& why)
{
    error(at, path, "Invalid value: \"" + std::string(value) + "\": " + why);
}

void DocReader::unsupported(const YamlNode& at, const std::string& path, std::string_view value,
    std::initializer_list<std::string_view> supported)
{
    std::string list;
    for (const auto& s : supported)
        list += (list.empty() ? "\"" : ", \"") + std::string(s) + "\"";
    error(at, path, "Unsupported value: \"" + std::string(value) + "\": supported values: " + list);
}

void DocReader::unknownField(const YamlNode& key, const std::string& path, std::string_view expected)
{
    std::string message = "unknown field \"" + key.asString().value_or(key.scalar) + "\"";
    if (!expected.empty())
        message += "; expected one of: " + std::string(expected);
    error(key, path, message);
}

void DocReader::duplicate(const YamlNode& at, const std::string& path, std::string_view value)
{
    error(at, path, "Duplicate value: \"" + std::string(value) + "\"");
}

std::string DocReader::describe(const YamlNode& n)
{
    std::string out = n.typeName();
    if (n.isScalar()) {
        out += " \"" + n.scalar.substr(0, 64);
        if (n.scalar.size() > 64)
            out += "...";
        out += '"';
    }
    return out;
}

bool DocReader::isMap(const YamlNode& n, const std::string& path)
{
    if (n.isMap())
        return true;
    error(n, path, "expected a map, got " + describe(n));
    return false;
}

bool DocReader::isList(const YamlNode& n, const std::string& path)
{
    if (n.isSequence())
        return true;
    error(n, path, "expected a list, got " + describe(n));
    return false;
}

std::optional<std::string> DocReader::string(const YamlNode& n, const std::string& path)
{
    auto s = n.isScalar() ? n.asString() : std::nullopt;
    if (!s)
        error(n, path, "expected a string, got " + describe(n));
    return s;
}

std::optional<bool> DocReader::boolean(const YamlNode& n, const std::string& path)
{
    auto b = n.asBool();
    if (!b)
        error(n, path, "expected a boolean, got " + describe(n));
    return b;
}

std::optional<int64_t> DocReader::integer(
    const YamlNode& n, const std::string& path, int64_t min, int64_t max)
{
    auto i = n.asInt();
    if (!i) {
        error(n, path, "expected an integer, got " + describe(n));
        return std::nullopt;
    }
    if (*i < min || *i > max) {
        error(n, path,
            "Invalid value: " + std::to_string(*i) + ": "
                + rangeText(min != std::numeric_limits<int64_t>::min(), std::to_string(min),
                    max != std::numeric_limits<int64_t>::max(), std::to_string(max)));
        return std::nullopt;
    }
    return i;
}

std::optional<double> DocReader::number(const YamlNode& n, const std::string& path, double min, double max)
{
    auto d = n.asDouble();
    if (!d) {
        error(n, path, "expected a number, got " + describe(n));
        return std::nullopt;
    }
    if (!(*d >= min && *d <= max)) {
        error(n, path,
            "Invalid value: " + n.scalar + ": "
                + rangeText(!std::isinf(min), boundText(min), !std::isinf(max), boundText(max)));
        return std::nullopt;
    }
    return d;
}

std::optional<double> DocReader::duration(const YamlNode& n, const std::string& path, Forever foreverRule)
{
    if (!n.isScalar()) {
        error(n, path, "expected a duration such as 90s, 15m or 2h, got " + describe(n));
        return std::nullopt;
    }
    std::string why;
    auto v = parseDurationSeconds(n.scalar, &why, foreverRule);
    if (!v)
        error(n, path, why);
    return v;
}

std::optional<int64_t> DocReader::milliseconds(const YamlNode& n, const std::string& path)
{
    if (!n.isScalar()) {
        error(n, path, "expected a duration such as 90s, 15m or 2h, got " + describe(n));
        return std::nullopt;
    }
    std::string why;
    auto v = parseDurationMillis(n.scalar, &why);
    if (!v)
        error(n, path, why);
    return v;
}

std::vector<std::string> DocReader::paths(const YamlNode& n, const std::string& path)
{
    std::vector<std::string> out;
    if (n.isScalar()) {
        if (auto s = string(n, path))
            out.push_back(*s);
        return out;
    }
    if (!n.isSequence()) {
        error(n, path, "expected a path or a list of paths, got " + describe(n));
        return out;
    }
    items(n, path, [&](const YamlNode& item, const std::string& ip) {
        if (auto s = string(item, ip))
            out.push_back(*s);
    });
    return out;
}

namespace {

/// metadata: the name (named into the reader), labels and annotations.
void readFrameMetadata(DocReader& r, const YamlNode& meta, const std::string& path)
{
    r.fields(meta, path, [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "name") {
            if (auto name = r.string(v, sub)) {
                r.setName(*name);
                if (!checkDnsLabel(*name).empty())
                    r.invalid(v, sub, *name, "must be a lowercase RFC 1123 label");
            }
            return true;
        }
        return key == "labels" || key == "annotations"; // accepted, unused
    });
}

} // namespace

const YamlNode* readDocumentHead(
    DocReader& r, const YamlNode& doc, std::string_view apiVersion, std::string_view kind)
{
    if (!r.isMap(doc, ""))
        return nullptr;
    // The name first, so that a mistake in any field before metadata names its object.
    if (const YamlNode* meta = doc.get("metadata"); meta && meta->isMap())
        if (const YamlNode* name = meta->get("name"))
            r.setName(name->asString().value_or(""));

    const YamlNode* spec = nullptr;
    bool haveApi = false, haveKind = false, haveName = false;
    r.fields(doc, "", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key == "apiVersion") {
            haveApi = true;
            if (auto api = r.string(v, sub); api && *api != apiVersion)
                r.unsupported(v, sub, *api, { apiVersion });
        } else if (key == "kind") {
            haveKind = true;
            if (auto k = r.string(v, sub); k && *k != kind)
                r.unsupported(v, sub, *k, { kind });
        } else if (key == "metadata") {
            haveName = v.isMap() && v.get("name");
            readFrameMetadata(r, v, sub);
        } else if (key == "spec") {
            spec = &v;
        } else {
            return false;
        }
        return true;
    });
    if (!haveApi)
        r.required(doc, "apiVersion");
    if (!haveKind)
        r.required(doc, "kind");
    if (!haveName)
        r.required(doc, "metadata.name");
    if (!spec)
        r.required(doc, "spec");
    return spec;
}

DocumentFrame readDocumentFrame(DocReader& r, const std::vector<YamlNode>& docs, const std::string& file,
    std::string_view apiVersion, std::string_view kind)
{
    DocumentFrame frame;
    if (docs.empty() || docs.front().isNull()) {
        r.error(SourcePos { file, 1, 1 }, "", "empty document: expected kind: " + std::string(kind));
        return frame;
    }
    std::string noun(kind);
    for (char& c : noun)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (docs.size() > 1)
        r.error(docs[1], "", "a " + noun + " file holds exactly one document");
    frame.root = &docs.front();
    frame.spec = readDocumentHead(r, docs.front(), apiVersion, kind);
    return frame;
}

} // namespace drasim::yamlio
