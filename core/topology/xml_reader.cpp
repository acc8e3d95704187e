// SPDX-License-Identifier: Apache-2.0
#include "core/topology/xml_reader.h"

#include <cctype>
#include <cstdint>

#include "core/cel/text_chars.h"

namespace drasim::topology::xml {

const std::string* Element::attr(std::string_view key) const
{
    for (const auto& [k, v] : attributes)
        if (k == key)
            return &v;
    return nullptr;
}

namespace {

class XmlParser
{
public:
    XmlParser(std::string_view text, ParseError* error, int maxDepth)
        : m_text(text)
        , m_error(error)
        , m_maxDepth(maxDepth)
    { }

    std::unique_ptr<Element> run()
    {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
            advance(3);
        skipMisc();
        if (failed())
            return nullptr;
        if (atEnd() || peek() != '<') {
            fail("expected the root element");
            return nullptr;
        }
        auto root = element(0);
        if (!root)
            return nullptr;
        skipMisc();
        if (!failed() && !atEnd())
            fail("unexpected content after the root element");
        return failed() ? nullptr : std::move(root);
    }

private:
    std::string_view m_text;
    ParseError* m_error;
    int m_maxDepth;
    size_t m_pos = 0;
    int m_line = 1;
    int m_col = 1;
    bool m_failed = false;

    bool failed() const { return m_failed; }
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }
    bool startsWith(std::string_view s) const { return m_text.substr(m_pos, s.size()) == s; }

    void advance(size_t n = 1)
    {
        for (size_t i = 0; i < n && m_pos < m_text.size(); ++i, ++m_pos) {
            if (m_text[m_pos] == '\n') {
                ++m_line;
                m_col = 1;
            } else {
                ++m_col;
            }
        }
    }

    void fail(const std::string& msg)
    {
        if (m_failed)
            return;
        m_failed = true;
        if (m_error)
            *m_error = ParseError { msg, m_line, m_col };
    }

    void skipSpace()
    {
        while (!atEnd() && std::isspace(static_cast<unsigned char>(peek())))
            advance();
    }

    // Comments, processing instructions, DOCTYPE and whitespace between elements.
    void skipMisc()
    {
        for (;;) {
            skipSpace();
            if (startsWith("<!--")) {
                auto end = m_text.find("-->", m_pos + 4);
                if (end == std::string_view::npos)
                    return fail("unterminated comment");
                advance(end + 3 - m_pos);
            } else if (startsWith("<?")) {
                auto end = m_text.find("?>", m_pos + 2);
                if (end == std::string_view::npos)
                    return fail("unterminated processing instruction");
                advance(end + 2 - m_pos);
            } else if (startsWith("<!DOCTYPE")) {
                auto end = m_text.find('>', m_pos);
                if (end == std::string_view::npos)
                    return fail("unterminated DOCTYPE");
                advance(end + 1 - m_pos);
            } else {
                return;
            }
        }
    }

    std::string name()
    {
        std::string out;
        while (!atEnd()) {
            char c = peek();
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':')
                out += c;
            else
                break;
            advance();
        }
        if (out.empty())
            fail("expected a name");
        return out;
    }

    bool decode(std::string_view raw, std::string& out)
    {
        for (size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '&') {
                out += raw[i];
                continue;
            }
            auto semi = raw.find(';', i);
            if (semi == std::string_view::npos) {
                fail("unterminated entity reference");
                return false;
            }
            std::string_view ent = raw.substr(i + 1, semi - i - 1);
            if (ent == "amp")
                out += '&';
            else if (ent == "lt")
                out += '<';
            else if (ent == "gt")
                out += '>';
            else if (ent == "quot")
                out += '"';
            else if (ent == "apos")
                out += '\'';
            else if (!ent.empty() && ent[0] == '#') {
                unsigned long cp = 0;
                try {
                    cp = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X')
                        ? std::stoul(std::string(ent.substr(2)), nullptr, 16)
                        : std::stoul(std::string(ent.substr(1)), nullptr, 10);
                } catch (...) {
                    fail("bad character reference &" + std::string(ent) + ";");
                    return false;
                }
                if (cp >= 0x110000) {
                    fail("character reference out of range");
                    return false;
                }
                cel::appendUtf8(out, uint32_t(cp));
            } else {
                fail("unknown entity &" + std::string(ent) + ";");
                return false;
            }
            i = semi;
        }
        return true;
    }

    std::unique_ptr<Element> element(int depth)
    {
        if (depth > m_maxDepth) {
            fail("elements nested too deeply");
            return nullptr;
        }
        auto e = std::make_unique<Element>();
        e->line = m_line;
        e->column = m_col;
        advance(); // '<'
        e->name = name();
        if (failed())
            return nullptr;
        for (;;) {
            skipSpace();
            if (atEnd())
                return fail("unterminated start tag <" + e->name + ">"), nullptr;
            if (startsWith("/>")) {
                advance(2);
                return e;
            }
            if (peek() == '>') {
                advance();
                break;
            }
            std::string key = name();
            if (failed())
                return nullptr;
            skipSpace();
            if (atEnd() || peek() != '=')
                return fail("expected '=' after attribute " + key), nullptr;
            advance();
            skipSpace();
            if (atEnd() || (peek() != '"' && peek() != '\''))
                return fail("attribute " + key + " needs a quoted value"), nullptr;
            const char quote = peek();
            advance();
            auto end = m_text.find(quote, m_pos);
            if (end == std::string_view::npos)
                return fail("unterminated value of attribute " + key), nullptr;
            std::string value;
            if (!decode(m_text.substr(m_pos, end - m_pos), value))
                return nullptr;
            if (e->attr(key))
                return fail("attribute " + key + " appears twice"), nullptr;
            advance(end + 1 - m_pos);
            e->attributes.emplace_back(std::move(key), std::move(value));
        }
        // Content: child elements, text (kept raw: hwloc's distance matrices are text), comments.
        for (;;) {
            if (atEnd())
                return fail("element <" + e->name + "> is not closed"), nullptr;
            if (startsWith("</")) {
                advance(2);
                std::string closing = name();
                if (failed())
                    return nullptr;
                if (closing != e->name)
                    return fail("closing tag </" + closing + "> does not match <" + e->name
                               + "> opened at line " + std::to_string(e->line)),
                           nullptr;
                skipSpace();
                if (atEnd() || peek() != '>')
                    return fail("expected '>'"), nullptr;
                advance();
                return e;
            }
            if (startsWith("<!--") || startsWith("<?")) {
                skipMisc();
                if (failed())
                    return nullptr;
                continue;
            }
            if (startsWith("<![CDATA[")) {
                auto end = m_text.find("]]>", m_pos);
                if (end == std::string_view::npos)
                    return fail("unterminated CDATA section"), nullptr;
                advance(end + 3 - m_pos);
                continue;
            }
            if (peek() == '<') {
                auto child = element(depth + 1);
                if (!child)
                    return nullptr;
                e->children.push_back(std::move(child));
                continue;
            }
            e->text += peek();
            advance();
        }
    }
};

} // namespace

std::unique_ptr<Element> parse(std::string_view text, ParseError* error, int maxDepth)
{
    XmlParser p(text, error, maxDepth);
    return p.run();
}

} // namespace drasim::topology::xml
