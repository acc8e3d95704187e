// SPDX-License-Identifier: Apache-2.0
// Typed, strict reading of drasim's own documents (Scenario, workload specs, Kubeflow Pipelines,
// NodeShapes) from a positioned YAML tree, with the manifests' wording for every mistake so that
// a user reads the same sentence whichever file is wrong:
//
//   file:line:column: Kind name: field.path: unknown field "x"
//   ...: Required value
//   ...: expected a map, got list            expected an integer, got string "two"
//   ...: Invalid value: 0: must be greater than or equal to 1
//   ...: Unsupported value: "x": supported values: "a", "b"
//   ...: Duplicate value: "x"
//   ...: invalid duration "5 min": unknown unit " min"; expected seconds or a duration like ...
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/duration_text.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::yamlio {

/// `base.key`, or `key` at the top (field paths as the diagnostics print them).
std::string joinPath(const std::string& base, std::string_view key);
/// `base[i]`.
std::string indexPath(const std::string& base, size_t i);

class DocReader
{
public:
    /// Errors are attributed to the object `kind` `name` (the name may be set once known).
    DocReader(Diagnostics& diags, std::string kind, std::string name = {});

    void setName(std::string name) { m_name = std::move(name); }
    const std::string& name() const { return m_name; }
    Diagnostics& diags() { return m_diags; }
    /// Errors reported through this reader.
    size_t errors() const { return m_errors; }
    bool ok() const { return m_errors == 0; }

    void error(const YamlNode& at, const std::string& path, const std::string& message)
    {
        error(at.pos, path, message);
    }
    void warning(const YamlNode& at, const std::string& path, const std::string& message)
    {
        warning(at.pos, path, message);
    }
    /// For readers that keep positions apart from their nodes.
    void error(const SourcePos& at, const std::string& path, const std::string& message);
    void warning(const SourcePos& at, const std::string& path, const std::string& message);
    void required(const YamlNode& at, const std::string& path) { error(at, path, "Required value"); }
    void invalid(const YamlNode& at, const std::string& path, std::string_view value, const std::string& why);
    void unsupported(const YamlNode& at, const std::string& path, std::string_view value,
        std::initializer_list<std::string_view> supported);
    /// unknown field "key", optionally followed by "; expected one of: <expected>".
    void unknownField(const YamlNode& key, const std::string& path, std::string_view expected = {});
    void duplicate(const YamlNode& at, const std::string& path, std::string_view value);

    /// The field loop. Calls f(key, value, path) for each entry of a map in document order; f
    /// returns false for a key it does not know, reported as unknown field "key" (strict
    /// decoding). A node that is not a map is reported; returns whether it was one.
    template <class F> bool fields(const YamlNode& map, const std::string& path, F&& f)
    {
        if (!isMap(map, path))
            return false;
        for (const auto& [k, v] : map.entries) {
            const std::string key = k.asString().value_or(k.scalar);
            const std::string sub = joinPath(path, key);
            if (!f(key, v, sub))
                unknownField(k, sub);
        }
        return true;
    }

    /// Calls f(item, path) for each item of a list; a node that is not a list is reported.
    template <class F> bool items(const YamlNode& list, const std::string& path, F&& f)
    {
        if (!isList(list, path))
            return false;
        for (size_t i = 0; i < list.items.size(); ++i)
            f(list.items[i], indexPath(path, i));
        return true;
    }

    /// Shape checks: report "expected a map, got ..." and return false.
    bool isMap(const YamlNode& n, const std::string& path);
    bool isList(const YamlNode& n, const std::string& path);

    /// Typed getters: nullopt (and an error) when the node has another type or is out of range.
    std::optional<std::string> string(const YamlNode& n, const std::string& path);
    std::optional<bool> boolean(const YamlNode& n, const std::string& path);
    std::optional<int64_t> integer(const YamlNode& n, const std::string& path,
        int64_t min = std::numeric_limits<int64_t>::min(), int64_t max = std::numeric_limits<int64_t>::max());
    std::optional<double> number(const YamlNode& n, const std::string& path,
        double min = -std::numeric_limits<double>::infinity(),
        double max = std::numeric_limits<double>::infinity());
    /// A duration in the one grammar (core/common/duration_text.h), in seconds. A YAML number is
    /// read as its text, so `90` and `"90"` and `90s` agree.
    std::optional<double> duration(
        const YamlNode& n, const std::string& path, Forever foreverRule = Forever::Allowed);
    /// A finite duration in the same grammar, rounded to whole milliseconds (simulated time).
    std::optional<int64_t> milliseconds(const YamlNode& n, const std::string& path);
    /// A path or a list of paths, kept as written (a single path is a one-element list).
    std::vector<std::string> paths(const YamlNode& n, const std::string& path);

    /// `list` or `integer "3"`: the node's type, and a scalar's text.
    static std::string describe(const YamlNode& n);

    /// The field loop, reporting an unknown key with the keys this map knows:
    /// unknown field "key"; expected one of: <expected>.
    template <class F>
    bool fields(const YamlNode& map, const std::string& path, std::string_view expected, F&& f)
    {
        if (!isMap(map, path))
            return false;
        for (const auto& [k, v] : map.entries) {
            const std::string key = k.asString().value_or(k.scalar);
            const std::string sub = joinPath(path, key);
            if (!f(key, v, sub))
                unknownField(k, sub, expected);
        }
        return true;
    }

private:
    Diagnostics& m_diags;
    std::string m_kind;
    std::string m_name;
    size_t m_errors = 0;
};

/// The head every drasim document shares: a map of `apiVersion`, `kind`, `metadata` (`name`, a
/// lowercase RFC 1123 label; `labels` and `annotations` accepted and unused) and `spec`. Reports
/// what is wrong with it, names the reader after metadata.name (so every later message carries
/// it) and returns the spec node: nullptr when missing (reported) or the document is not a map.
const YamlNode* readDocumentHead(
    DocReader& r, const YamlNode& doc, std::string_view apiVersion, std::string_view kind);

/// A file that holds exactly one such document (Scenario, Study).
struct DocumentFrame
{
    const YamlNode* root = nullptr; ///< nullptr for an empty file
    const YamlNode* spec = nullptr; ///< as readDocumentHead returns it
};
DocumentFrame readDocumentFrame(DocReader& r, const std::vector<YamlNode>& docs, const std::string& file,
    std::string_view apiVersion, std::string_view kind);

} // namespace drasim::yamlio
