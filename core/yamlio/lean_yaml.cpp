// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/lean_yaml.h"

#include <algorithm>
#include <limits>
#include <streambuf>

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace drasim::yamlio::lean {

namespace {

constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();

// Lets yaml-cpp read the caller's buffer without copying it into a stringstream.
class ViewBuffer : public std::streambuf
{
public:
    explicit ViewBuffer(std::string_view v)
    {
        char* p = const_cast<char*>(v.data());
        setg(p, p, p + v.size());
    }
};

Tag tagFromYaml(const std::string& tag)
{
    if (tag.empty() || tag == "?" || tag == "!")
        return Tag::None;
    static constexpr std::string_view kPrefix = "tag:yaml.org,2002:";
    std::string_view t = tag;
    if (t.starts_with(kPrefix)) {
        t.remove_prefix(kPrefix.size());
        if (t == "str")
            return Tag::Str;
        if (t == "int")
            return Tag::Int;
        if (t == "bool")
            return Tag::Bool;
        if (t == "float")
            return Tag::Float;
        if (t == "null")
            return Tag::Null;
        if (t == "map")
            return Tag::Map;
        if (t == "seq")
            return Tag::Seq;
        if (t == "binary")
            return Tag::Binary;
    }
    return Tag::Other;
}

// Raised from inside the event handler to abandon the parse; caught in parseDocuments.
struct Abort
{
    YAML::Mark mark;
    std::string message;
};

class Builder : public YAML::EventHandler
{
public:
    Builder(std::string_view input, const std::string& file, Diagnostics& diags, const YamlLimits& limits,
        const std::function<void(Document&)>& onDocument, uint32_t lineOffset)
        : m_file(file)
        , m_diags(diags)
        , m_limits(limits)
        , m_onDocument(onDocument)
        , m_lineOffset(lineOffset)
    {
        m_doc.input = input;
    }

    bool documentFailed() const { return m_failed; }

    void OnDocumentStart(const YAML::Mark& mark) override
    {
        // yaml-cpp 0.7 does not consume a stray flow indicator (", x" at document level): it
        // reports an empty document at the same place forever. Stop on the second one.
        if (m_lastDocumentEmpty && mark.pos == m_lastDocumentStart)
            throw Abort { mark, "did not find expected node content" };
        m_lastDocumentStart = mark.pos;
        m_doc.nodes.clear();
        m_doc.text.clear();
        m_open.clear();
        m_anchors.clear();
        m_expanded = 0;
        m_failed = false;
    }

    void OnDocumentEnd() override
    {
        m_lastDocumentEmpty = m_doc.nodes.size() == 1 && m_doc.nodes[0].kind == YamlNode::Kind::Null;
        if (!m_failed && !m_doc.nodes.empty())
            m_onDocument(m_doc);
    }

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        uint32_t i = add(YamlNode::Kind::Null, mark, Tag::None, false);
        remember(anchor, i);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (anchor >= m_anchors.size() || m_anchors[anchor] == kNoNode)
            throw Abort { mark, "unknown anchor referenced" };
        const uint32_t src = m_anchors[anchor];
        const uint32_t size = m_doc.nodes[src].size;
        if (size == 0)
            throw Abort { mark, "alias refers to a node that contains it" };
        m_expanded += size;
        if (m_expanded > m_limits.maxAliasExpansion)
            throw Abort { mark,
                "document contains excessive aliasing (more than "
                    + std::to_string(m_limits.maxAliasExpansion) + " nodes expanded)" };
        if (!m_open.empty())
            ++m_doc.nodes[m_open.back()].children;
        // The anchored subtree is contiguous in pre-order and closed: copy it as is.
        m_doc.nodes.reserve(m_doc.nodes.size() + size);
        for (uint32_t k = 0; k < size; ++k)
            m_doc.nodes.push_back(m_doc.nodes[src + k]);
    }

    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
        const std::string& value) override
    {
        checkQuoteClosed(mark);
        uint32_t i = add(YamlNode::Kind::Scalar, mark, tagFromYaml(tag), tag == "!");
        Node& n = m_doc.nodes[i];
        if (m_doc.text.size() + value.size() > std::numeric_limits<uint32_t>::max())
            throw Abort { mark, "document too large" };
        n.textOffset = uint32_t(m_doc.text.size());
        n.textLength = uint32_t(value.size());
        m_doc.text += value;
        remember(anchor, i);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
        YAML::EmitterStyle::value) override
    {
        open(YamlNode::Kind::Sequence, mark, tag, anchor);
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
        YAML::EmitterStyle::value) override
    {
        open(YamlNode::Kind::Map, mark, tag, anchor);
    }
    void OnMapEnd() override
    {
        const uint32_t i = m_open.back();
        close();
        checkDuplicateKeys(i);
    }

private:
    uint32_t add(YamlNode::Kind kind, const YAML::Mark& mark, Tag tag, bool quoted)
    {
        if (!m_open.empty())
            ++m_doc.nodes[m_open.back()].children;
        Node n;
        n.kind = kind;
        n.tag = tag;
        n.quoted = quoted;
        n.line = uint32_t(mark.line + 1) + m_lineOffset;
        n.column = uint32_t(mark.column + 1);
        n.inputOffset = mark.pos < 0 ? 0 : uint32_t(mark.pos);
        m_doc.nodes.push_back(n);
        return uint32_t(m_doc.nodes.size() - 1);
    }

    // yaml-cpp accepts a quoted scalar that runs into the end of the input; YAML does not.
    void checkQuoteClosed(const YAML::Mark& mark)
    {
        const std::string_view in = m_doc.input;
        if (mark.pos < 0 || size_t(mark.pos) >= in.size())
            return;
        const char q = in[size_t(mark.pos)];
        if (q != '"' && q != '\'')
            return;
        for (size_t i = size_t(mark.pos) + 1; i < in.size(); ++i) {
            if (q == '"' && in[i] == '\\') {
                ++i;
            } else if (in[i] == q) {
                if (q == '\'' && i + 1 < in.size() && in[i + 1] == '\'') {
                    ++i; // '' is an escaped quote
                    continue;
                }
                return;
            }
        }
        throw Abort { mark, "found unexpected end of stream while scanning a quoted scalar" };
    }

    void remember(YAML::anchor_t anchor, uint32_t i)
    {
        if (anchor == YAML::NullAnchor)
            return;
        if (anchor >= m_anchors.size())
            m_anchors.resize(anchor + 1, kNoNode);
        m_anchors[anchor] = i;
    }

    void open(YamlNode::Kind kind, const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor)
    {
        // Guarding depth here stops yaml-cpp's recursive descent long before the stack is at risk.
        if (int(m_open.size()) >= m_limits.maxDepth)
            throw Abort { mark, "nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels" };
        uint32_t i = add(kind, mark, tagFromYaml(tag), false);
        m_doc.nodes[i].size = 0; // open: an alias to it now would be recursive
        m_open.push_back(i);
        remember(anchor, i);
    }

    void close()
    {
        const uint32_t i = m_open.back();
        m_open.pop_back();
        m_doc.nodes[i].size = uint32_t(m_doc.nodes.size() - i);
    }

    void checkDuplicateKeys(uint32_t map)
    {
        const Node& m = m_doc.nodes[map];
        if (m.children < 4)
            return checkDuplicateKeysSmall(map);
        std::vector<std::pair<std::string_view, uint32_t>> keys;
        keys.reserve(m.children / 2);
        uint32_t c = map + 1;
        for (uint32_t k = 0; k < m.children; k += 2) {
            if (m_doc.nodes[c].kind == YamlNode::Kind::Scalar)
                keys.emplace_back(m_doc.scalar(c), c);
            c = m_doc.next(c);
            if (k + 1 < m.children)
                c = m_doc.next(c);
        }
        std::stable_sort(
            keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (size_t k = 1; k < keys.size(); ++k)
            if (keys[k].first == keys[k - 1].first)
                reportDuplicate(std::min(keys[k].second, keys[k - 1].second),
                    std::max(keys[k].second, keys[k - 1].second));
    }

    void checkDuplicateKeysSmall(uint32_t map)
    {
        const Node& m = m_doc.nodes[map];
        uint32_t keys[2];
        uint32_t n = 0, c = map + 1;
        for (uint32_t k = 0; k < m.children; k += 2) {
            if (m_doc.nodes[c].kind == YamlNode::Kind::Scalar && n < 2)
                keys[n++] = c;
            c = m_doc.next(c);
            if (k + 1 < m.children)
                c = m_doc.next(c);
        }
        if (n == 2 && m_doc.scalar(keys[0]) == m_doc.scalar(keys[1]))
            reportDuplicate(keys[0], keys[1]);
    }

    void reportDuplicate(uint32_t first, uint32_t second)
    {
        const Node& d = m_doc.nodes[second];
        m_diags.error(SourcePos { m_file, int(d.line), int(d.column) }, "", "", "",
            "mapping key \"" + std::string(m_doc.scalar(second)) + "\" already defined at line "
                + std::to_string(m_doc.nodes[first].line));
        m_failed = true;
    }

    const std::string& m_file;
    Diagnostics& m_diags;
    const YamlLimits& m_limits;
    const std::function<void(Document&)>& m_onDocument;
    Document m_doc;
    std::vector<uint32_t> m_open;
    std::vector<uint32_t> m_anchors;
    size_t m_expanded = 0;
    bool m_failed = false;
    uint32_t m_lineOffset = 0;
    int m_lastDocumentStart = -1;
    bool m_lastDocumentEmpty = false;
};

} // namespace

bool checkText(std::string_view s, const std::string& fileName, Diagnostics& diags)
{
    int line = 1, column = 1;
    size_t i = 0;
    if (s.starts_with("\xEF\xBB\xBF"))
        i = 3;
    auto report = [&](std::string message) {
        diags.error(SourcePos { fileName, line, column }, "", "", "", std::move(message));
        return false;
    };
    auto hex = [](unsigned v) {
        static const char* d = "0123456789abcdef";
        std::string r = "0x";
        r += d[(v >> 4) & 15];
        r += d[v & 15];
        return r;
    };
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c == '\n') {
                ++line;
                column = 1;
                ++i;
                continue;
            }
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
                return report("control character " + hex(c) + " is not allowed in YAML (binary file?)");
            ++i;
            ++column;
            continue;
        }
        size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
        if (len == 0 || c > 0xF4 || c == 0xC0 || c == 0xC1 || i + len > s.size())
            return report("invalid UTF-8 byte " + hex(c) + " (binary file?)");
        uint32_t cp = c & (0x3F >> (len - 1));
        for (size_t k = 1; k < len; ++k) {
            const unsigned char cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80)
                return report("invalid UTF-8 byte " + hex(cc) + " (binary file?)");
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return report("invalid UTF-8 sequence (binary file?)");
        i += len;
        ++column;
    }
    return true;
}

namespace {

// yaml-cpp's messages for tab-indented lines ("illegal map value") do not say why.
std::string tabHint(std::string_view in, const YAML::Mark& mark)
{
    if (mark.is_null())
        return {};
    int line = 1;
    size_t start = 0;
    for (size_t i = 0; i < in.size() && line < mark.line + 1; ++i)
        if (in[i] == '\n')
            ++line, start = i + 1;
    // Check this line and the one before it.
    for (int k = 0; k < 2; ++k) {
        size_t j = start;
        while (j < in.size() && in[j] == ' ')
            ++j;
        if (j < in.size() && in[j] == '\t')
            return " (tabs are not allowed for indentation in YAML)";
        if (start == 0)
            break;
        size_t prev = in.rfind('\n', start >= 2 ? start - 2 : 0);
        start = prev == std::string_view::npos ? 0 : prev + 1;
    }
    return {};
}

} // namespace

bool parseDocuments(std::string_view input, const std::string& fileName, Diagnostics& diags,
    const YamlLimits& limits, const std::function<void(Document&)>& onDocument, uint32_t lineOffset)
{
    if (input.size() > limits.maxDocumentBytes) {
        diags.error(SourcePos { fileName, 0, 0 }, "", "", "",
            "input is " + std::to_string(input.size()) + " bytes, more than the limit of "
                + std::to_string(limits.maxDocumentBytes) + " bytes");
        return false;
    }
    if (!checkText(input, fileName, diags))
        return false;
    ViewBuffer buffer(input);
    std::istream stream(&buffer);
    Builder builder(input, fileName, diags, limits, onDocument, lineOffset);
    bool ok = true;
    auto fail = [&](const YAML::Mark& mark, const std::string& message) {
        const int line = mark.is_null() ? 0 : mark.line + 1;
        const int column = mark.is_null() ? 0 : mark.column + 1;
        diags.error(SourcePos { fileName, line, column }, "", "", "", "YAML: " + message);
        ok = false;
    };
    try {
        YAML::Parser parser(stream);
        while (parser.HandleNextDocument(builder)) {
            if (builder.documentFailed())
                ok = false;
        }
    } catch (const Abort& a) {
        fail(a.mark, a.message);
    } catch (const YAML::Exception& e) {
        fail(e.mark, e.msg + tabHint(input, e.mark));
    } catch (const std::exception& e) {
        fail(YAML::Mark::null_mark(), e.what());
    }
    return ok;
}

} // namespace drasim::yamlio::lean
